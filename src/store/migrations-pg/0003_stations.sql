ALTER TABLE "printers" ADD COLUMN "station" text;--> statement-breakpoint
ALTER TABLE "watched_folders" ADD COLUMN "station" text;