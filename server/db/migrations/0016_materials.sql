ALTER TABLE "papers" ADD COLUMN "shared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "shared_chapter_id" integer;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_shared_chapter_id_chapters_id_fk" FOREIGN KEY ("shared_chapter_id") REFERENCES "chapters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "papers_shared_idx" ON "papers" USING btree ("org_id","shared_at");
