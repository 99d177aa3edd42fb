CREATE TABLE "homework_absences" (
	"homework_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"org_id" integer NOT NULL,
	"marked_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "homework_absences_homework_id_student_id_pk" PRIMARY KEY("homework_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "homework_closures" (
	"homework_id" integer PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"closed_by" integer,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "homework_absences" ADD CONSTRAINT "homework_absences_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_absences" ADD CONSTRAINT "homework_absences_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_absences" ADD CONSTRAINT "homework_absences_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_absences" ADD CONSTRAINT "homework_absences_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_closures" ADD CONSTRAINT "homework_closures_homework_id_homework_id_fk" FOREIGN KEY ("homework_id") REFERENCES "homework"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_closures" ADD CONSTRAINT "homework_closures_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_closures" ADD CONSTRAINT "homework_closures_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;
