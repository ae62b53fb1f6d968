CREATE TABLE "studio_drafts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"training_status" text,
	"gender" text,
	"name" text DEFAULT '' NOT NULL,
	"keep_training_photos" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_photos" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"model_id" text,
	"storage_key" text NOT NULL,
	"thumbnail_key" text NOT NULL,
	"file_name" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_reason" text,
	"face" jsonb,
	"embedding" real[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"validated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_models" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"gender" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_reason" text,
	"progress" integer,
	"paid_with" text NOT NULL,
	"photo_count" integer NOT NULL,
	"zip_key" text,
	"featured_image_key" text,
	"engine" text NOT NULL,
	"engine_reference" text,
	"weights" text,
	"trigger_word" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"training_started_at" timestamp with time zone,
	"last_news_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"photos_deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "studio_drafts" ADD CONSTRAINT "studio_drafts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_photos" ADD CONSTRAINT "training_photos_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_photos" ADD CONSTRAINT "training_photos_model_id_user_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."user_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_models" ADD CONSTRAINT "user_models_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "training_photos_user_idx" ON "training_photos" USING btree ("user_id","model_id","created_at");--> statement-breakpoint
CREATE INDEX "training_photos_model_idx" ON "training_photos" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "user_models_user_idx" ON "user_models" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "user_models_engine_reference_idx" ON "user_models" USING btree ("engine","engine_reference");