CREATE TABLE "provider_costs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"engine" text NOT NULL,
	"reference" text NOT NULL,
	"usd" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "provider_costs_time_idx" ON "provider_costs" USING btree ("created_at");