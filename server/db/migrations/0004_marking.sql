CREATE TABLE "answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"homework_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"question_no" integer NOT NULL,
	"recognition_id" integer,
	"labels" jsonb,
	"region_path" text,
	"needs_review" boolean DEFAULT false NOT NULL,
	"missing" boolean DEFAULT false NOT NULL,
	"auto_score" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marking_assignments" (
	"homework_id" integer NOT NULL,
	"question_no" integer NOT NULL,
	"user_id" integer NOT NULL,
	"org_id" integer NOT NULL,
	CONSTRAINT "marking_assignments_homework_id_question_no_user_id_pk" PRIMARY KEY("homework_id","question_no","user_id")
);
--> statement-breakpoint
CREATE TABLE "marking_homework_settings" (
	"homework_id" integer PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"partial_credit" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marking_question_settings" (
	"homework_id" integer NOT NULL,
	"question_no" integer NOT NULL,
	"org_id" integer NOT NULL,
	"double_marking" boolean DEFAULT false NOT NULL,
	"tolerance" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "marking_question_settings_homework_id_question_no_pk" PRIMARY KEY("homework_id","question_no")
);
--> statement-breakpoint
CREATE TABLE "marking_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"homework_id" integer NOT NULL,
	"answer_id" integer NOT NULL,
	"question_no" integer NOT NULL,
	"round" integer NOT NULL,
	"claimed_by" integer,
	"claim_expires_at" timestamp with time zone,
	"marker_id" integer,
	"score" double precision,
	"annotations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"problem" boolean DEFAULT false NOT NULL,
	"scored_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_recognitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"scan_page_id" integer NOT NULL,
	"image_id" uuid NOT NULL,
	"batch_id" integer NOT NULL,
	"homework_id" integer,
	"page_no" integer,
	"student_id" integer,
	"reading" jsonb,
	"template_homework_id" integer,
	"regions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"applied" boolean DEFAULT false NOT NULL,
	"forced_homework_id" integer,
	"forced_student_id" integer,
	"forced_page_no" integer,
	"lease_until" timestamp with time zone,
	"claim_token" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"recognised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "page_recognitions_scan_page_id_unique" UNIQUE("scan_page_id")
);
--> statement-breakpoint
CREATE TABLE "question_scores" (
	"homework_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"question_no" integer NOT NULL,
	"org_id" integer NOT NULL,
	"answer_id" integer NOT NULL,
	"score" double precision NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_scores_homework_id_student_id_question_no_pk" PRIMARY KEY("homework_id","student_id","question_no")
);
--> statement-breakpoint
CREATE TABLE "review_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"homework_id" integer,
	"recognition_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"page_no" integer,
	"question_no" integer,
	"student_id" integer,
	"reading" jsonb,
	"answer_labels" jsonb,
	"detail" text,
	"resolution" text,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_recognition_id_page_recognitions_id_fk" FOREIGN KEY ("recognition_id") REFERENCES "page_recognitions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_assignments" ADD CONSTRAINT "marking_assignments_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_assignments" ADD CONSTRAINT "marking_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_assignments" ADD CONSTRAINT "marking_assignments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_homework_settings" ADD CONSTRAINT "marking_homework_settings_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_homework_settings" ADD CONSTRAINT "marking_homework_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_question_settings" ADD CONSTRAINT "marking_question_settings_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_question_settings" ADD CONSTRAINT "marking_question_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_tasks" ADD CONSTRAINT "marking_tasks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_tasks" ADD CONSTRAINT "marking_tasks_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_tasks" ADD CONSTRAINT "marking_tasks_answer_id_answers_id_fk" FOREIGN KEY ("answer_id") REFERENCES "answers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_tasks" ADD CONSTRAINT "marking_tasks_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marking_tasks" ADD CONSTRAINT "marking_tasks_marker_id_users_id_fk" FOREIGN KEY ("marker_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_recognitions" ADD CONSTRAINT "page_recognitions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_recognitions" ADD CONSTRAINT "page_recognitions_scan_page_id_scan_pages_id_fk" FOREIGN KEY ("scan_page_id") REFERENCES "scan_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_recognitions" ADD CONSTRAINT "page_recognitions_batch_id_scan_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "scan_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_recognitions" ADD CONSTRAINT "page_recognitions_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_recognitions" ADD CONSTRAINT "page_recognitions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "students"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_recognitions" ADD CONSTRAINT "page_recognitions_template_homework_id_homework_id_fk" FOREIGN KEY ("template_homework_id") REFERENCES "homework"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_recognitions" ADD CONSTRAINT "page_recognitions_forced_homework_id_homework_id_fk" FOREIGN KEY ("forced_homework_id") REFERENCES "homework"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_recognitions" ADD CONSTRAINT "page_recognitions_forced_student_id_students_id_fk" FOREIGN KEY ("forced_student_id") REFERENCES "students"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_scores" ADD CONSTRAINT "question_scores_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_scores" ADD CONSTRAINT "question_scores_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_scores" ADD CONSTRAINT "question_scores_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_scores" ADD CONSTRAINT "question_scores_answer_id_answers_id_fk" FOREIGN KEY ("answer_id") REFERENCES "answers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_recognition_id_page_recognitions_id_fk" FOREIGN KEY ("recognition_id") REFERENCES "page_recognitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "students"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answers_homework_student_question_idx" ON "answers" USING btree ("homework_id","student_id","question_no");--> statement-breakpoint
CREATE INDEX "answers_homework_question_idx" ON "answers" USING btree ("homework_id","question_no");--> statement-breakpoint
CREATE INDEX "answers_recognition_idx" ON "answers" USING btree ("recognition_id");--> statement-breakpoint
CREATE INDEX "marking_assignments_user_idx" ON "marking_assignments" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "marking_tasks_answer_round_idx" ON "marking_tasks" USING btree ("answer_id","round");--> statement-breakpoint
CREATE INDEX "marking_tasks_question_idx" ON "marking_tasks" USING btree ("homework_id","question_no","round");--> statement-breakpoint
CREATE INDEX "marking_tasks_marker_idx" ON "marking_tasks" USING btree ("marker_id","homework_id","question_no");--> statement-breakpoint
CREATE INDEX "page_recognitions_homework_idx" ON "page_recognitions" USING btree ("homework_id","student_id","page_no");--> statement-breakpoint
CREATE INDEX "page_recognitions_batch_idx" ON "page_recognitions" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "review_items_homework_idx" ON "review_items" USING btree ("homework_id","status");--> statement-breakpoint
CREATE INDEX "review_items_recognition_idx" ON "review_items" USING btree ("recognition_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_items_missing_page_idx" ON "review_items" USING btree ("homework_id","student_id","page_no") WHERE kind = 'missingPage';--> statement-breakpoint
-- Hand-written: the recognition queue claims the oldest waiting page; keep that a short index scan.
CREATE INDEX "scan_pages_queue_idx" ON "scan_pages" USING btree ("id") WHERE "status" IN ('stored', 'recognising');
