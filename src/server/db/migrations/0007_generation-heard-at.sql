DROP INDEX "generations_processing_idx";--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "heard_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "generations_processing_idx" ON "generations" USING btree ("status","heard_at");