ALTER TABLE "jobs" ADD COLUMN "lane" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_lane_due" ON "jobs" USING btree ("kind","state","lane","run_at");--> statement-breakpoint
-- creation jobs queued before lanes existed join their shipment's lane (`provider:channel`, see src/services/shipments/create.ts)
UPDATE "jobs" SET "lane" = "shipments"."provider" || ':' || "shipments"."channel_id" FROM "shipments"
WHERE "jobs"."kind" = 'shipment.create' AND "shipments"."id" = "jobs"."subject_id";
