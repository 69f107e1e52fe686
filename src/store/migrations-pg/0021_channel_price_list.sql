ALTER TABLE "shipments" ADD COLUMN "price_source" text;--> statement-breakpoint
ALTER TABLE "shipping_channels" ADD COLUMN "price_list" text;