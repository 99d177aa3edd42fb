ALTER TABLE "marking_tasks" ADD COLUMN "error_cause" text;--> statement-breakpoint
ALTER TABLE "question_scores" ADD COLUMN "error_cause" text;--> statement-breakpoint
CREATE TABLE "wrong_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"first_wrong_on" date NOT NULL,
	"last_wrong_on" date NOT NULL,
	"homework_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_homework_id" integer NOT NULL,
	"last_question_no" integer NOT NULL,
	"last_answered_question_id" integer NOT NULL,
	"last_score" double precision NOT NULL,
	"full_score" double precision NOT NULL,
	"times_wrong" integer NOT NULL,
	"redo_count" integer DEFAULT 0 NOT NULL,
	"mastery" text DEFAULT 'pending' NOT NULL,
	"last_redo_homework_id" integer,
	"error_cause" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rehearse_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"owner_id" integer,
	"subject_id" integer NOT NULL,
	"school_year_id" integer NOT NULL,
	"class_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"kind" text NOT NULL,
	"homework_id" integer,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rehearse_set_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"set_id" integer NOT NULL,
	"homework_id" integer,
	"student_id" integer,
	"position" integer NOT NULL,
	"question_id" integer NOT NULL,
	"score" double precision,
	"origin_question_id" integer,
	"reason" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rehearse_queue" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"homework_id" integer,
	"added_by" integer,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"set_id" integer
);
--> statement-breakpoint
CREATE TABLE "rehearse_settings" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"error_causes" jsonb NOT NULL,
	"subjective_wrong_percent" integer DEFAULT 100 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wrong_questions" ADD CONSTRAINT "wrong_questions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wrong_questions" ADD CONSTRAINT "wrong_questions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wrong_questions" ADD CONSTRAINT "wrong_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wrong_questions" ADD CONSTRAINT "wrong_questions_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wrong_questions" ADD CONSTRAINT "wrong_questions_last_homework_id_homework_id_fk" FOREIGN KEY ("last_homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wrong_questions" ADD CONSTRAINT "wrong_questions_last_answered_question_id_questions_id_fk" FOREIGN KEY ("last_answered_question_id") REFERENCES "questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wrong_questions" ADD CONSTRAINT "wrong_questions_last_redo_homework_id_homework_id_fk" FOREIGN KEY ("last_redo_homework_id") REFERENCES "homework"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_sets" ADD CONSTRAINT "rehearse_sets_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_sets" ADD CONSTRAINT "rehearse_sets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_sets" ADD CONSTRAINT "rehearse_sets_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_sets" ADD CONSTRAINT "rehearse_sets_school_year_id_classes_id_fk" FOREIGN KEY ("school_year_id") REFERENCES "classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_sets" ADD CONSTRAINT "rehearse_sets_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_set_items" ADD CONSTRAINT "rehearse_set_items_set_id_rehearse_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "rehearse_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_set_items" ADD CONSTRAINT "rehearse_set_items_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_set_items" ADD CONSTRAINT "rehearse_set_items_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_set_items" ADD CONSTRAINT "rehearse_set_items_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_set_items" ADD CONSTRAINT "rehearse_set_items_origin_question_id_questions_id_fk" FOREIGN KEY ("origin_question_id") REFERENCES "questions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_queue" ADD CONSTRAINT "rehearse_queue_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_queue" ADD CONSTRAINT "rehearse_queue_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_queue" ADD CONSTRAINT "rehearse_queue_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_queue" ADD CONSTRAINT "rehearse_queue_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_queue" ADD CONSTRAINT "rehearse_queue_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_queue" ADD CONSTRAINT "rehearse_queue_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_queue" ADD CONSTRAINT "rehearse_queue_set_id_rehearse_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "rehearse_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearse_settings" ADD CONSTRAINT "rehearse_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wrong_questions_student_question_idx" ON "wrong_questions" USING btree ("student_id","question_id");--> statement-breakpoint
CREATE INDEX "wrong_questions_org_subject_idx" ON "wrong_questions" USING btree ("org_id","subject_id","mastery");--> statement-breakpoint
CREATE INDEX "wrong_questions_question_idx" ON "wrong_questions" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "rehearse_sets_org_idx" ON "rehearse_sets" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rehearse_sets_homework_idx" ON "rehearse_sets" USING btree ("homework_id");--> statement-breakpoint
CREATE INDEX "rehearse_set_items_set_idx" ON "rehearse_set_items" USING btree ("set_id","student_id","position");--> statement-breakpoint
CREATE INDEX "rehearse_set_items_homework_idx" ON "rehearse_set_items" USING btree ("homework_id","student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rehearse_queue_waiting_idx" ON "rehearse_queue" USING btree ("class_id","subject_id","question_id") WHERE set_id is null;
