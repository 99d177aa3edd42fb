CREATE TABLE "scan_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"homework_id" integer,
	"station_name" text NOT NULL,
	"created_by" integer,
	"page_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"image_id" uuid NOT NULL,
	"batch_id" integer NOT NULL,
	"org_id" integer NOT NULL,
	"homework_id" integer,
	"sequence" integer NOT NULL,
	"scan_subject" boolean NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"stored_path" text NOT NULL,
	"status" text DEFAULT 'stored' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scan_pages_image_id_unique" UNIQUE("image_id")
);
--> statement-breakpoint
ALTER TABLE "scan_batches" ADD CONSTRAINT "scan_batches_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_batches" ADD CONSTRAINT "scan_batches_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_batches" ADD CONSTRAINT "scan_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_batch_id_scan_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "scan_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scan_batches_org_homework_idx" ON "scan_batches" USING btree ("org_id","homework_id","created_at");--> statement-breakpoint
CREATE INDEX "scan_pages_batch_idx" ON "scan_pages" USING btree ("batch_id","sequence");--> statement-breakpoint
CREATE INDEX "scan_pages_homework_idx" ON "scan_pages" USING btree ("homework_id");