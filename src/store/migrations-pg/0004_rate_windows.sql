-- Requests per account and one-minute window, counted by every daemon on the store (daemon/http/rate-limit.ts).
-- Unlogged: counting a request writes no WAL, and a count lost in a crash costs nothing. PostgreSQL only: a SQLite
-- store has one daemon, which counts in memory.
CREATE UNLOGGED TABLE "rate_windows" (
  "account_id" text NOT NULL,
  "window_start" bigint NOT NULL,
  "count" integer NOT NULL,
  PRIMARY KEY ("account_id", "window_start")
);
