CREATE TABLE "login_failures" (
	"login_key" text NOT NULL,
	"ip" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "login_failures_login_key_ip_pk" PRIMARY KEY("login_key","ip")
);
