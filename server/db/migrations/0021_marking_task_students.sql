-- Analysis speed (issue 14): the data centre's 阅卷统计 (/dataCenter/correctScore) gives per class and
-- teacher the scored marking tasks, how many were scored by the end of the due day (Beijing time) and the
-- median marking time (hours from the due day's start). It joined every task to its answer (2 million
-- answers in the benchmark's school) to learn the student, and sorted every task's time.
--
-- 1. A task carries its answer's student (answers never change student: a page given to another student
--    replaces its answers): filled from the answer when not given (BEFORE INSERT / UPDATE of answer_id);
--    the bulk seeds, which insert tasks in the same statement as their answers (not visible yet), give it.
-- 2. marking_task_hours: per homework, class (the student's) and clock hour (hours since the epoch), the
--    number of scored tasks. Counts and the on-time count come from it alone (the due day ends on a whole
--    hour: Beijing is UTC+8, no summer time), whatever the due date is changed to. The median stays exact:
--    the hours give the one or two hours holding the middle task(s), and only the tasks scored in those
--    hours are read (index marking_tasks_scored_idx), not the semester's.
--
-- How it stays correct: statement triggers on marking_tasks add the new scored rows and subtract the old
-- ones on every INSERT, UPDATE (a score given or changed, a third marking, an arbitration: scored_at is
-- set again) and DELETE (a task removed, or gone with its answer or homework by cascade), deltas under the
-- row lock of the upsert; a student moving class moves their hours; a student's deletion takes them away
-- first (their tasks then go by cascade and are no longer found). ENABLE ALWAYS: they fire under
-- session_replication_role = replica too (the bulk seed).
ALTER TABLE "marking_tasks" ADD COLUMN IF NOT EXISTS "student_id" integer;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "marking_tasks_student"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	SELECT a.student_id INTO NEW.student_id FROM answers a WHERE a.id = NEW.answer_id;
	RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "marking_tasks_student_insert" BEFORE INSERT ON "marking_tasks" FOR EACH ROW WHEN (NEW.student_id IS NULL) EXECUTE FUNCTION "marking_tasks_student"();--> statement-breakpoint
CREATE TRIGGER "marking_tasks_student_update" BEFORE UPDATE OF "answer_id" ON "marking_tasks" FOR EACH ROW WHEN (OLD.answer_id IS DISTINCT FROM NEW.answer_id) EXECUTE FUNCTION "marking_tasks_student"();--> statement-breakpoint
ALTER TABLE "marking_tasks" ENABLE ALWAYS TRIGGER "marking_tasks_student_insert";--> statement-breakpoint
ALTER TABLE "marking_tasks" ENABLE ALWAYS TRIGGER "marking_tasks_student_update";--> statement-breakpoint
UPDATE "marking_tasks" t SET "student_id" = a."student_id" FROM "answers" a WHERE a."id" = t."answer_id" AND t."student_id" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "marking_tasks_scored_idx" ON "marking_tasks" USING btree ("org_id","homework_id","scored_at","student_id") WHERE "scored_at" IS NOT NULL;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "marking_task_hours" (
	"homework_id" integer NOT NULL CONSTRAINT "marking_task_hours_homework_id_homework_id_fk" REFERENCES "homework"("id") ON DELETE cascade,
	"class_id" integer NOT NULL CONSTRAINT "marking_task_hours_class_id_classes_id_fk" REFERENCES "classes"("id") ON DELETE cascade,
	"hour" integer NOT NULL,
	"org_id" integer NOT NULL CONSTRAINT "marking_task_hours_org_id_orgs_id_fk" REFERENCES "orgs"("id") ON DELETE cascade,
	"task_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "marking_task_hours_pk" PRIMARY KEY ("homework_id","class_id","hour")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "marking_task_hours_org_homework_idx" ON "marking_task_hours" USING btree ("org_id","homework_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "marking_task_hours_tasks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		-- Only the rows whose hour, student or homework changed (a claim changes none of them).
		INSERT INTO marking_task_hours AS t (homework_id, class_id, hour, org_id, task_count)
		SELECT d.homework_id, s.class_id, d.hour, min(d.org_id), sum(d.n)
		FROM (
			SELECT o.homework_id, o.student_id, floor(extract(epoch from o.scored_at) / 3600)::int AS hour, o.org_id, -1 AS n
			FROM old_rows o JOIN new_rows n ON n.id = o.id
			WHERE o.scored_at IS NOT NULL AND (n.scored_at IS NULL OR floor(extract(epoch from n.scored_at) / 3600) <> floor(extract(epoch from o.scored_at) / 3600)
				OR n.student_id IS DISTINCT FROM o.student_id OR n.homework_id <> o.homework_id)
			UNION ALL
			SELECT n.homework_id, n.student_id, floor(extract(epoch from n.scored_at) / 3600)::int, n.org_id, 1
			FROM old_rows o JOIN new_rows n ON n.id = o.id
			WHERE n.scored_at IS NOT NULL AND (o.scored_at IS NULL OR floor(extract(epoch from n.scored_at) / 3600) <> floor(extract(epoch from o.scored_at) / 3600)
				OR n.student_id IS DISTINCT FROM o.student_id OR n.homework_id <> o.homework_id)
		) d JOIN students s ON s.id = d.student_id
		GROUP BY d.homework_id, s.class_id, d.hour HAVING sum(d.n) <> 0
		ON CONFLICT (homework_id, class_id, hour) DO UPDATE SET task_count = t.task_count + excluded.task_count;
	ELSIF TG_OP = 'INSERT' THEN
		INSERT INTO marking_task_hours AS t (homework_id, class_id, hour, org_id, task_count)
		SELECT n.homework_id, s.class_id, floor(extract(epoch from n.scored_at) / 3600)::int, min(n.org_id), count(*)
		FROM new_rows n JOIN students s ON s.id = n.student_id WHERE n.scored_at IS NOT NULL GROUP BY 1, 2, 3
		ON CONFLICT (homework_id, class_id, hour) DO UPDATE SET task_count = t.task_count + excluded.task_count;
	ELSE
		UPDATE marking_task_hours t SET task_count = t.task_count - d.n
		FROM (SELECT o.homework_id, s.class_id, floor(extract(epoch from o.scored_at) / 3600)::int AS hour, count(*) AS n
			FROM old_rows o JOIN students s ON s.id = o.student_id WHERE o.scored_at IS NOT NULL GROUP BY 1, 2, 3) d
		WHERE t.homework_id = d.homework_id AND t.class_id = d.class_id AND t.hour = d.hour;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
-- A student moving class takes their scored tasks along; a deleted student's are taken away first.
CREATE OR REPLACE FUNCTION "marking_task_hours_student"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE marking_task_hours t SET task_count = t.task_count - d.n
	FROM (SELECT homework_id, floor(extract(epoch from scored_at) / 3600)::int AS hour, count(*) AS n
		FROM marking_tasks WHERE student_id = OLD.id AND scored_at IS NOT NULL GROUP BY 1, 2) d
	WHERE t.homework_id = d.homework_id AND t.class_id = OLD.class_id AND t.hour = d.hour;
	IF TG_OP = 'UPDATE' THEN
		INSERT INTO marking_task_hours AS t (homework_id, class_id, hour, org_id, task_count)
		SELECT homework_id, NEW.class_id, floor(extract(epoch from scored_at) / 3600)::int, min(org_id), count(*)
		FROM marking_tasks WHERE student_id = NEW.id AND scored_at IS NOT NULL GROUP BY 1, 2, 3
		ON CONFLICT (homework_id, class_id, hour) DO UPDATE SET task_count = t.task_count + excluded.task_count;
		RETURN NULL;
	END IF;
	RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "marking_task_hours_insert" AFTER INSERT ON "marking_tasks" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "marking_task_hours_tasks"();--> statement-breakpoint
CREATE TRIGGER "marking_task_hours_update" AFTER UPDATE ON "marking_tasks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "marking_task_hours_tasks"();--> statement-breakpoint
CREATE TRIGGER "marking_task_hours_delete" AFTER DELETE ON "marking_tasks" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "marking_task_hours_tasks"();--> statement-breakpoint
CREATE TRIGGER "marking_task_hours_student_moved" AFTER UPDATE OF "class_id" ON "students" FOR EACH ROW WHEN (OLD.class_id IS DISTINCT FROM NEW.class_id) EXECUTE FUNCTION "marking_task_hours_student"();--> statement-breakpoint
CREATE TRIGGER "marking_task_hours_student_deleted" BEFORE DELETE ON "students" FOR EACH ROW EXECUTE FUNCTION "marking_task_hours_student"();--> statement-breakpoint
ALTER TABLE "marking_tasks" ENABLE ALWAYS TRIGGER "marking_task_hours_insert";--> statement-breakpoint
ALTER TABLE "marking_tasks" ENABLE ALWAYS TRIGGER "marking_task_hours_update";--> statement-breakpoint
ALTER TABLE "marking_tasks" ENABLE ALWAYS TRIGGER "marking_task_hours_delete";--> statement-breakpoint
ALTER TABLE "students" ENABLE ALWAYS TRIGGER "marking_task_hours_student_moved";--> statement-breakpoint
ALTER TABLE "students" ENABLE ALWAYS TRIGGER "marking_task_hours_student_deleted";--> statement-breakpoint
-- Tasks scored before this migration.
INSERT INTO "marking_task_hours" ("homework_id", "class_id", "hour", "org_id", "task_count")
SELECT t."homework_id", s."class_id", floor(extract(epoch from t."scored_at") / 3600)::int, min(t."org_id"), count(*)
FROM "marking_tasks" t JOIN "students" s ON s."id" = t."student_id" WHERE t."scored_at" IS NOT NULL GROUP BY 1, 2, 3
ON CONFLICT DO NOTHING;
