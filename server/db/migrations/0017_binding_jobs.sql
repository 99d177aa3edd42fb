CREATE TABLE "binding_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"input" jsonb NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"file_name" text,
	"content_type" text,
	"file_path" text,
	"error" text,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "binding_jobs" ADD CONSTRAINT "binding_jobs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "binding_jobs" ADD CONSTRAINT "binding_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "binding_jobs_user_idx" ON "binding_jobs" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "binding_jobs_finished_idx" ON "binding_jobs" USING btree ("finished_at");
