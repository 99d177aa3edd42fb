-- Analysis (issue 14): the per-school-year rank setting and the indexes the reports read by.
-- Ranks and named score lists per school year: null = the default for the school type (off for 小学 and
-- 初中, on for 高中), true/false = the school's choice.
ALTER TABLE "classes" ADD COLUMN "ranks_enabled" boolean;--> statement-breakpoint
-- The reports read a school's scores and answers per homework (and count them per school on /bigData).
CREATE INDEX IF NOT EXISTS "question_scores_org_homework_idx" ON "question_scores" USING btree ("org_id","homework_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "answers_org_homework_idx" ON "answers" USING btree ("org_id","homework_id","student_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "homework_absences_org_homework_idx" ON "homework_absences" USING btree ("org_id","homework_id");
