ALTER TABLE "generations" ADD COLUMN "likeness_rerolls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "likeness_refunded" boolean DEFAULT false NOT NULL;