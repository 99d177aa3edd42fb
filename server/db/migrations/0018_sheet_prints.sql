CREATE TABLE "answer_sheet_prints" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"homework_id" integer NOT NULL,
	"class_id" integer,
	"mode" text NOT NULL,
	"sheets" integer NOT NULL,
	"printed_by" integer,
	"printed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "answer_sheet_prints" ADD CONSTRAINT "answer_sheet_prints_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sheet_prints" ADD CONSTRAINT "answer_sheet_prints_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sheet_prints" ADD CONSTRAINT "answer_sheet_prints_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sheet_prints" ADD CONSTRAINT "answer_sheet_prints_printed_by_users_id_fk" FOREIGN KEY ("printed_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_sheet_prints_homework_idx" ON "answer_sheet_prints" USING btree ("homework_id","printed_at");
