ALTER TABLE "orgs" ADD COLUMN "low_percent" integer DEFAULT 40 NOT NULL;--> statement-breakpoint
CREATE TABLE "subject_rate_lines" (
	"org_id" integer NOT NULL,
	"school_year_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"excellent_percent" numeric(4, 1) NOT NULL,
	"good_percent" numeric(4, 1) NOT NULL,
	"pass_percent" numeric(4, 1) NOT NULL,
	"low_percent" numeric(4, 1) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subject_rate_lines_school_year_id_subject_id_pk" PRIMARY KEY("school_year_id","subject_id")
);
--> statement-breakpoint
ALTER TABLE "subject_rate_lines" ADD CONSTRAINT "subject_rate_lines_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_rate_lines" ADD CONSTRAINT "subject_rate_lines_school_year_id_classes_id_fk" FOREIGN KEY ("school_year_id") REFERENCES "classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_rate_lines" ADD CONSTRAINT "subject_rate_lines_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subject_rate_lines_org_idx" ON "subject_rate_lines" USING btree ("org_id");
