CREATE TABLE "model_previews" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"user_model_id" text NOT NULL,
	"preset_id" text NOT NULL,
	"preset_name" text NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"image_key" text,
	"thumbnail_key" text,
	"width" integer,
	"height" integer,
	"engine" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "model_previews" ADD CONSTRAINT "model_previews_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_previews" ADD CONSTRAINT "model_previews_user_model_id_user_models_id_fk" FOREIGN KEY ("user_model_id") REFERENCES "public"."user_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_previews_model_idx" ON "model_previews" USING btree ("user_model_id","position");