CREATE TABLE "answer_sheet_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"homework_id" integer NOT NULL,
	"version" integer NOT NULL,
	"template" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chapters" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer,
	"subject_id" integer NOT NULL,
	"pid" integer,
	"type" text DEFAULT 'booknode' NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "homework" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"paper_id" integer NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"start_date" date NOT NULL,
	"due_date" date NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "homework_classes" (
	"homework_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	CONSTRAINT "homework_classes_homework_id_class_id_pk" PRIMARY KEY("homework_id","class_id")
);
--> statement-breakpoint
CREATE TABLE "knowledge_points" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer,
	"subject_id" integer NOT NULL,
	"pid" integer,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"paper_id" integer NOT NULL,
	"section_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"no" integer NOT NULL,
	"score" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"paper_id" integer NOT NULL,
	"sort" integer NOT NULL,
	"title" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "papers" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"school_year_id" integer NOT NULL,
	"title" text NOT NULL,
	"paper_size" text DEFAULT 'A4' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_chapters" (
	"question_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	CONSTRAINT "question_chapters_question_id_chapter_id_pk" PRIMARY KEY("question_id","chapter_id")
);
--> statement-breakpoint
CREATE TABLE "question_knowledge_points" (
	"question_id" integer NOT NULL,
	"knowledge_point_id" integer NOT NULL,
	CONSTRAINT "question_knowledge_points_question_id_knowledge_point_id_pk" PRIMARY KEY("question_id","knowledge_point_id")
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer,
	"subject_id" integer NOT NULL,
	"type" text NOT NULL,
	"stem" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answer" jsonb NOT NULL,
	"analysis" text DEFAULT '' NOT NULL,
	"difficulty" integer NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "students" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "answer_sheet_templates" ADD CONSTRAINT "answer_sheet_templates_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_pid_chapters_id_fk" FOREIGN KEY ("pid") REFERENCES "chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework" ADD CONSTRAINT "homework_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework" ADD CONSTRAINT "homework_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "papers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework" ADD CONSTRAINT "homework_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_classes" ADD CONSTRAINT "homework_classes_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_classes" ADD CONSTRAINT "homework_classes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_points" ADD CONSTRAINT "knowledge_points_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_points" ADD CONSTRAINT "knowledge_points_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_points" ADD CONSTRAINT "knowledge_points_pid_knowledge_points_id_fk" FOREIGN KEY ("pid") REFERENCES "knowledge_points"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_questions" ADD CONSTRAINT "paper_questions_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_questions" ADD CONSTRAINT "paper_questions_section_id_paper_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "paper_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_questions" ADD CONSTRAINT "paper_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_sections" ADD CONSTRAINT "paper_sections_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_school_year_id_classes_id_fk" FOREIGN KEY ("school_year_id") REFERENCES "classes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_chapters" ADD CONSTRAINT "question_chapters_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_chapters" ADD CONSTRAINT "question_chapters_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_knowledge_points" ADD CONSTRAINT "question_knowledge_points_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_knowledge_points" ADD CONSTRAINT "question_knowledge_points_knowledge_point_id_knowledge_points_id_fk" FOREIGN KEY ("knowledge_point_id") REFERENCES "knowledge_points"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answer_sheet_templates_homework_version_idx" ON "answer_sheet_templates" USING btree ("homework_id","version");--> statement-breakpoint
CREATE INDEX "chapters_subject_idx" ON "chapters" USING btree ("subject_id","org_id");--> statement-breakpoint
CREATE INDEX "homework_org_idx" ON "homework" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "homework_classes_class_idx" ON "homework_classes" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "knowledge_points_subject_idx" ON "knowledge_points" USING btree ("subject_id","org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "paper_questions_paper_no_idx" ON "paper_questions" USING btree ("paper_id","no");--> statement-breakpoint
CREATE INDEX "paper_questions_question_idx" ON "paper_questions" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "paper_sections_paper_idx" ON "paper_sections" USING btree ("paper_id");--> statement-breakpoint
CREATE INDEX "papers_org_idx" ON "papers" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "question_chapters_chapter_idx" ON "question_chapters" USING btree ("chapter_id");--> statement-breakpoint
CREATE INDEX "question_knowledge_points_kp_idx" ON "question_knowledge_points" USING btree ("knowledge_point_id");--> statement-breakpoint
CREATE INDEX "questions_subject_idx" ON "questions" USING btree ("subject_id","type","difficulty");--> statement-breakpoint
CREATE INDEX "questions_org_idx" ON "questions" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "students_org_code_idx" ON "students" USING btree ("org_id","code");--> statement-breakpoint
CREATE INDEX "students_class_idx" ON "students" USING btree ("class_id");