CREATE TABLE "homework_student_papers" (
	"homework_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"org_id" integer NOT NULL,
	"paper_id" integer NOT NULL,
	"template" jsonb NOT NULL,
	CONSTRAINT "homework_student_papers_homework_id_student_id_pk" PRIMARY KEY("homework_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "homework_student_papers" ADD CONSTRAINT "homework_student_papers_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_student_papers" ADD CONSTRAINT "homework_student_papers_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_student_papers" ADD CONSTRAINT "homework_student_papers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_student_papers" ADD CONSTRAINT "homework_student_papers_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "papers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "homework_student_papers_paper_idx" ON "homework_student_papers" USING btree ("paper_id");
