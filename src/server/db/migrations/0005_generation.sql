CREATE TABLE "bulk_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"total_images" integer NOT NULL,
	"completed_images" integer DEFAULT 0 NOT NULL,
	"failed_images" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "generations" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"user_model_id" text NOT NULL,
	"user_model_name" text NOT NULL,
	"preset_id" text,
	"model_name" text NOT NULL,
	"prompt_text" text,
	"status" text DEFAULT 'processing' NOT NULL,
	"failure_reason" text,
	"image_key" text,
	"thumbnail_key" text,
	"width" integer,
	"height" integer,
	"has_nsfw_content" boolean DEFAULT false NOT NULL,
	"bulk_job_id" text,
	"engine" text NOT NULL,
	"engine_reference" text,
	"is_preview" boolean DEFAULT false NOT NULL,
	"likeness" real,
	"favourite" boolean DEFAULT false NOT NULL,
	"viewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "user_models" ADD COLUMN "face_embedding" real[];--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_user_model_id_user_models_id_fk" FOREIGN KEY ("user_model_id") REFERENCES "public"."user_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_bulk_job_id_bulk_jobs_id_fk" FOREIGN KEY ("bulk_job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_jobs_user_idx" ON "bulk_jobs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "generations_user_idx" ON "generations" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "generations_bulk_idx" ON "generations" USING btree ("bulk_job_id");--> statement-breakpoint
CREATE INDEX "generations_model_idx" ON "generations" USING btree ("user_model_id");--> statement-breakpoint
CREATE INDEX "generations_processing_idx" ON "generations" USING btree ("status","created_at");