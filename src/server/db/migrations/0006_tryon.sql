CREATE TABLE "tryons" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"person_key" text NOT NULL,
	"garment_key" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"failure_reason" text,
	"result_key" text,
	"engine" text NOT NULL,
	"engine_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tryons" ADD CONSTRAINT "tryons_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tryons_user_idx" ON "tryons" USING btree ("user_id","created_at");