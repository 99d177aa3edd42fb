ALTER TABLE "question_sets" ADD COLUMN "knowledge_point_id" integer;--> statement-breakpoint
ALTER TABLE "question_sets" ADD CONSTRAINT "question_sets_knowledge_point_id_knowledge_points_id_fk" FOREIGN KEY ("knowledge_point_id") REFERENCES "knowledge_points"("id") ON DELETE set null ON UPDATE no action;
