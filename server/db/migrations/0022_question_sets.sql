CREATE TABLE "question_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"school_year_id" integer NOT NULL,
	"chapter_id" integer,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"shared_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "question_set_items" (
	"set_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"sort" integer NOT NULL,
	CONSTRAINT "question_set_items_set_id_question_id_pk" PRIMARY KEY("set_id","question_id")
);
--> statement-breakpoint
ALTER TABLE "question_sets" ADD CONSTRAINT "question_sets_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sets" ADD CONSTRAINT "question_sets_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sets" ADD CONSTRAINT "question_sets_school_year_id_classes_id_fk" FOREIGN KEY ("school_year_id") REFERENCES "classes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sets" ADD CONSTRAINT "question_sets_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "chapters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sets" ADD CONSTRAINT "question_sets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_set_items" ADD CONSTRAINT "question_set_items_set_id_question_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "question_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_set_items" ADD CONSTRAINT "question_set_items_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_sets_org_idx" ON "question_sets" USING btree ("org_id","shared_at");--> statement-breakpoint
CREATE INDEX "question_sets_owner_idx" ON "question_sets" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "question_set_items_question_idx" ON "question_set_items" USING btree ("question_id");
