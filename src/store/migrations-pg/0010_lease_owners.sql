ALTER TABLE "idempotency_keys" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "tracking_parcels" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD COLUMN "lease_owner" text;