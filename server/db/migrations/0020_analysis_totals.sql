-- Analysis speed (issue 14): two pre-aggregates of the final marks, kept by triggers in the same
-- transaction as every write of answers and question_scores, so a report over a semester reads ~one row
-- per student and homework instead of one per question.
--
-- homework_student_totals: per homework and student, how many answers were counted, how many of them have
-- a final score, and the sum of those scores. The marking module's status rule (decideStudentStatus) needs
-- only the two counts (plus absences and open review items, read live), and the statistics only the total.
-- homework_class_question_totals: per homework, class (the student's class when the score was written,
-- moved with the student) and question, the number of final scores, their sum and sum of squares: the
-- knowledge-point mastery, per-question rates and the reliability (alpha) of a class without reading the scores.
--
-- How they stay correct: every INSERT, UPDATE and DELETE on answers / question_scores (marking, review
-- resolution, third marking and arbitration, absence, re-practice, seeding, a homework's deletion by
-- cascade) fires a statement trigger that adds the new rows and subtracts the old ones (deltas under the
-- row lock of the upsert, so two transactions scoring the same student add up instead of overwriting each
-- other); a student moving class moves their contributions; a student's deletion takes them away first.
-- The triggers are ENABLE ALWAYS: they fire even under session_replication_role = replica, which the
-- bulk seed uses to skip foreign-key checks. Totals are numeric so adding and subtracting never drifts.
CREATE TABLE IF NOT EXISTS "homework_student_totals" (
	"homework_id" integer NOT NULL CONSTRAINT "homework_student_totals_homework_id_homework_id_fk" REFERENCES "homework"("id") ON DELETE cascade,
	"student_id" integer NOT NULL CONSTRAINT "homework_student_totals_student_id_students_id_fk" REFERENCES "students"("id") ON DELETE cascade,
	"org_id" integer NOT NULL CONSTRAINT "homework_student_totals_org_id_orgs_id_fk" REFERENCES "orgs"("id") ON DELETE cascade,
	"answer_count" integer DEFAULT 0 NOT NULL,
	"score_count" integer DEFAULT 0 NOT NULL,
	"total" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "homework_student_totals_pk" PRIMARY KEY ("homework_id","student_id")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "homework_student_totals_org_homework_idx" ON "homework_student_totals" USING btree ("org_id","homework_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "homework_class_question_totals" (
	"homework_id" integer NOT NULL CONSTRAINT "homework_class_question_totals_homework_id_homework_id_fk" REFERENCES "homework"("id") ON DELETE cascade,
	"class_id" integer NOT NULL CONSTRAINT "homework_class_question_totals_class_id_classes_id_fk" REFERENCES "classes"("id") ON DELETE cascade,
	"question_no" integer NOT NULL,
	"org_id" integer NOT NULL CONSTRAINT "homework_class_question_totals_org_id_orgs_id_fk" REFERENCES "orgs"("id") ON DELETE cascade,
	"score_count" integer DEFAULT 0 NOT NULL,
	"total" numeric DEFAULT 0 NOT NULL,
	"total_squares" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "homework_class_question_totals_pk" PRIMARY KEY ("homework_id","class_id","question_no")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "homework_class_question_totals_org_homework_idx" ON "homework_class_question_totals" USING btree ("org_id","homework_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "analysis_totals_answers"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO homework_student_totals AS t (homework_id, student_id, org_id, answer_count)
		SELECT homework_id, student_id, min(org_id), count(*) FROM new_rows GROUP BY homework_id, student_id
		ON CONFLICT (homework_id, student_id) DO UPDATE SET answer_count = t.answer_count + excluded.answer_count;
	END IF;
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		UPDATE homework_student_totals t SET answer_count = t.answer_count - d.n
		FROM (SELECT homework_id, student_id, count(*) AS n FROM old_rows GROUP BY homework_id, student_id) d
		WHERE t.homework_id = d.homework_id AND t.student_id = d.student_id;
		DELETE FROM homework_student_totals t USING (SELECT DISTINCT homework_id, student_id FROM old_rows) d
		WHERE t.homework_id = d.homework_id AND t.student_id = d.student_id AND t.answer_count = 0 AND t.score_count = 0;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "analysis_totals_scores"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO homework_student_totals AS t (homework_id, student_id, org_id, score_count, total)
		SELECT homework_id, student_id, min(org_id), count(*), sum(score::numeric) FROM new_rows GROUP BY homework_id, student_id
		ON CONFLICT (homework_id, student_id) DO UPDATE
		SET score_count = t.score_count + excluded.score_count, total = t.total + excluded.total;
		INSERT INTO homework_class_question_totals AS t (homework_id, class_id, question_no, org_id, score_count, total, total_squares)
		SELECT n.homework_id, s.class_id, n.question_no, min(n.org_id), count(*), sum(n.score::numeric), sum(n.score::numeric * n.score::numeric)
		FROM new_rows n JOIN students s ON s.id = n.student_id GROUP BY n.homework_id, s.class_id, n.question_no
		ON CONFLICT (homework_id, class_id, question_no) DO UPDATE
		SET score_count = t.score_count + excluded.score_count, total = t.total + excluded.total,
			total_squares = t.total_squares + excluded.total_squares;
	END IF;
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		UPDATE homework_student_totals t SET score_count = t.score_count - d.n, total = t.total - d.total
		FROM (SELECT homework_id, student_id, count(*) AS n, sum(score::numeric) AS total FROM old_rows GROUP BY homework_id, student_id) d
		WHERE t.homework_id = d.homework_id AND t.student_id = d.student_id;
		DELETE FROM homework_student_totals t USING (SELECT DISTINCT homework_id, student_id FROM old_rows) d
		WHERE t.homework_id = d.homework_id AND t.student_id = d.student_id AND t.answer_count = 0 AND t.score_count = 0;
		-- A student deleted with their scores (cascade) is no longer found here: their contributions were
		-- taken away by analysis_totals_student_deleted before the row went.
		UPDATE homework_class_question_totals t
		SET score_count = t.score_count - d.n, total = t.total - d.total, total_squares = t.total_squares - d.squares
		FROM (SELECT o.homework_id, s.class_id, o.question_no, count(*) AS n, sum(o.score::numeric) AS total,
				sum(o.score::numeric * o.score::numeric) AS squares
			FROM old_rows o JOIN students s ON s.id = o.student_id GROUP BY o.homework_id, s.class_id, o.question_no) d
		WHERE t.homework_id = d.homework_id AND t.class_id = d.class_id AND t.question_no = d.question_no;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
-- A student moving class takes their scores along (class_id is the student's class, as loadRoster reads it).
CREATE OR REPLACE FUNCTION "analysis_totals_student_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE homework_class_question_totals t
	SET score_count = t.score_count - 1, total = t.total - q.score::numeric, total_squares = t.total_squares - q.score::numeric * q.score::numeric
	FROM question_scores q
	WHERE q.student_id = OLD.id AND t.homework_id = q.homework_id AND t.class_id = OLD.class_id AND t.question_no = q.question_no;
	INSERT INTO homework_class_question_totals AS t (homework_id, class_id, question_no, org_id, score_count, total, total_squares)
	SELECT q.homework_id, NEW.class_id, q.question_no, q.org_id, 1, q.score::numeric, q.score::numeric * q.score::numeric
	FROM question_scores q WHERE q.student_id = NEW.id
	ON CONFLICT (homework_id, class_id, question_no) DO UPDATE
	SET score_count = t.score_count + excluded.score_count, total = t.total + excluded.total,
		total_squares = t.total_squares + excluded.total_squares;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "analysis_totals_student_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE homework_class_question_totals t
	SET score_count = t.score_count - 1, total = t.total - q.score::numeric, total_squares = t.total_squares - q.score::numeric * q.score::numeric
	FROM question_scores q
	WHERE q.student_id = OLD.id AND t.homework_id = q.homework_id AND t.class_id = OLD.class_id AND t.question_no = q.question_no;
	RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "analysis_totals_answers_insert" AFTER INSERT ON "answers" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "analysis_totals_answers"();--> statement-breakpoint
CREATE TRIGGER "analysis_totals_answers_update" AFTER UPDATE ON "answers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "analysis_totals_answers"();--> statement-breakpoint
CREATE TRIGGER "analysis_totals_answers_delete" AFTER DELETE ON "answers" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "analysis_totals_answers"();--> statement-breakpoint
CREATE TRIGGER "analysis_totals_scores_insert" AFTER INSERT ON "question_scores" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "analysis_totals_scores"();--> statement-breakpoint
CREATE TRIGGER "analysis_totals_scores_update" AFTER UPDATE ON "question_scores" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "analysis_totals_scores"();--> statement-breakpoint
CREATE TRIGGER "analysis_totals_scores_delete" AFTER DELETE ON "question_scores" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "analysis_totals_scores"();--> statement-breakpoint
CREATE TRIGGER "analysis_totals_student_moved" AFTER UPDATE OF "class_id" ON "students" FOR EACH ROW WHEN (OLD.class_id IS DISTINCT FROM NEW.class_id) EXECUTE FUNCTION "analysis_totals_student_moved"();--> statement-breakpoint
CREATE TRIGGER "analysis_totals_student_deleted" BEFORE DELETE ON "students" FOR EACH ROW EXECUTE FUNCTION "analysis_totals_student_deleted"();--> statement-breakpoint
ALTER TABLE "answers" ENABLE ALWAYS TRIGGER "analysis_totals_answers_insert";--> statement-breakpoint
ALTER TABLE "answers" ENABLE ALWAYS TRIGGER "analysis_totals_answers_update";--> statement-breakpoint
ALTER TABLE "answers" ENABLE ALWAYS TRIGGER "analysis_totals_answers_delete";--> statement-breakpoint
ALTER TABLE "question_scores" ENABLE ALWAYS TRIGGER "analysis_totals_scores_insert";--> statement-breakpoint
ALTER TABLE "question_scores" ENABLE ALWAYS TRIGGER "analysis_totals_scores_update";--> statement-breakpoint
ALTER TABLE "question_scores" ENABLE ALWAYS TRIGGER "analysis_totals_scores_delete";--> statement-breakpoint
ALTER TABLE "students" ENABLE ALWAYS TRIGGER "analysis_totals_student_moved";--> statement-breakpoint
ALTER TABLE "students" ENABLE ALWAYS TRIGGER "analysis_totals_student_deleted";--> statement-breakpoint
-- Rows written before this migration.
INSERT INTO "homework_student_totals" ("homework_id", "student_id", "org_id", "answer_count")
SELECT "homework_id", "student_id", min("org_id"), count(*) FROM "answers" GROUP BY "homework_id", "student_id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "homework_student_totals" t SET "score_count" = d.n, "total" = d.total
FROM (SELECT "homework_id", "student_id", count(*) AS n, sum("score"::numeric) AS total FROM "question_scores" GROUP BY 1, 2) d
WHERE t."homework_id" = d."homework_id" AND t."student_id" = d."student_id";--> statement-breakpoint
INSERT INTO "homework_student_totals" ("homework_id", "student_id", "org_id", "score_count", "total")
SELECT "homework_id", "student_id", min("org_id"), count(*), sum("score"::numeric) FROM "question_scores" q
WHERE NOT EXISTS (SELECT 1 FROM "homework_student_totals" t WHERE t."homework_id" = q."homework_id" AND t."student_id" = q."student_id")
GROUP BY "homework_id", "student_id";--> statement-breakpoint
INSERT INTO "homework_class_question_totals" ("homework_id", "class_id", "question_no", "org_id", "score_count", "total", "total_squares")
SELECT q."homework_id", s."class_id", q."question_no", min(q."org_id"), count(*), sum(q."score"::numeric), sum(q."score"::numeric * q."score"::numeric)
FROM "question_scores" q JOIN "students" s ON s."id" = q."student_id" GROUP BY 1, 2, 3;
