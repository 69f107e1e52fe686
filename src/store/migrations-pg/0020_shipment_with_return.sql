ALTER TABLE "shipments" ADD COLUMN "with_return" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "shipments_return_of" ON "shipments" USING btree ("return_of");