ALTER TABLE "shipping_channels" ADD COLUMN "dispatch_at" text;--> statement-breakpoint
ALTER TABLE "shipping_channels" ADD COLUMN "auto_dispatched_on" text;