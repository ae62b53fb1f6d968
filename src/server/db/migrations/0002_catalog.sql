CREATE TABLE "categories" (
	"manual_id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"emoji" text,
	"featured" boolean DEFAULT false NOT NULL,
	"order_index" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "example_photos" (
	"id" text PRIMARY KEY NOT NULL,
	"image" jsonb NOT NULL,
	"good_or_bad" text NOT NULL,
	"caption" text DEFAULT '' NOT NULL,
	"order_index" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "example_photos_good_or_bad_check" CHECK ("example_photos"."good_or_bad" in ('good', 'bad'))
);
--> statement-breakpoint
CREATE TABLE "presets" (
	"id" text PRIMARY KEY NOT NULL,
	"manual_id" text NOT NULL,
	"category_id" text NOT NULL,
	"display_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"prompt" text NOT NULL,
	"featured_image" jsonb,
	"additional_images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"order_index" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "presets_manual_id_unique" UNIQUE("manual_id")
);
--> statement-breakpoint
CREATE TABLE "quiz_images" (
	"id" text PRIMARY KEY NOT NULL,
	"image" jsonb NOT NULL,
	"is_ai" boolean NOT NULL,
	"order_index" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "presets" ADD CONSTRAINT "presets_category_id_categories_manual_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("manual_id") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "categories_order_idx" ON "categories" USING btree ("order_index");--> statement-breakpoint
CREATE INDEX "example_photos_order_idx" ON "example_photos" USING btree ("order_index");--> statement-breakpoint
CREATE INDEX "presets_category_order_idx" ON "presets" USING btree ("category_id","order_index");--> statement-breakpoint
CREATE INDEX "quiz_images_order_idx" ON "quiz_images" USING btree ("order_index");