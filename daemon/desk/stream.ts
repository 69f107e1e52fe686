import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServerResponse } from 'node:http';
import { Type } from 'typebox';
import { eq } from 'drizzle-orm';
import { UnauthorizedError } from '../../src/domain/errors.js';
import type { ServiceContext } from '../../src/services/context.js';
import { DESK_CHANGED, type DeskChange } from '../../src/services/desk-changes.js';
import { deskSessionOf } from '../../src/services/desk-sessions.js';
import { refreshPrinterStatus } from '../../src/services/printing/printers.js';
import { printers } from '../../src/store/schema.js';
import { errorResponses } from '../http/schemas.js';
import { cookieValue, deskCookieName } from './cookie.js';

export interface DeskStreamOptions {
  /** How often the printers of an account with an open desk are asked for their status. */
  printerCheckMs?: number;
  /** How often an idle stream sends a comment (keeps proxies from closing it) and checks its session is still valid. */
  heartbeatMs?: number;
}

const DEFAULTS = { printerCheckMs: 5_000, heartbeatMs: 15_000 };

/**
 * Asks an account's printers for their status while at least one of its desks is open, one round at a time, so a
 * paper-out shows on the desk without a print job to find it. What changed reaches the desks as a `printer` event.
 */
class PrinterWatch {
  private readonly watchers = new Map<string, { desks: number; timer: NodeJS.Timeout; checking: boolean }>();

  constructor(private readonly ctx: ServiceContext, private readonly everyMs: number) {}

  add(accountId: string): void {
    const watch = this.watchers.get(accountId);
    if (watch) {
      watch.desks += 1;
      return;
    }
    const entry = { desks: 1, checking: false, timer: setInterval(() => void this.check(accountId, entry), this.everyMs) };
    entry.timer.unref();
    this.watchers.set(accountId, entry);
  }

  remove(accountId: string): void {
    const watch = this.watchers.get(accountId);
    if (!watch || --watch.desks > 0) return;
    clearInterval(watch.timer);
    this.watchers.delete(accountId);
  }

  private async check(accountId: string, entry: { checking: boolean }): Promise<void> {
    if (entry.checking) return;
    entry.checking = true;
    try {
      const rows = await this.ctx.db.select().from(printers).where(eq(printers.accountId, accountId)).all();
      await Promise.all(rows.map((row) => refreshPrinterStatus(this.ctx, row).catch((err: unknown) =>
        this.ctx.log.warn({ printer_id: row.id, err }, 'printer status check for the desk failed'))));
    } catch (err) {
      this.ctx.log.warn({ account_id: accountId, err }, 'printers for the desk could not be read');
    } finally {
      entry.checking = false;
    }
  }
}

function send(raw: ServerResponse, event: string, data: unknown): void {
  raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * `GET /v1/desk/events`: Server-Sent Events of the signed-in desk's account — `printer`, `print_job` and `shipment`
 * with the id that changed; the page reads the new state through /v1 as any client would.
 */
export function deskStreamRoutes(ctx: ServiceContext, options: DeskStreamOptions = {}): FastifyPluginAsyncTypebox {
  const { printerCheckMs, heartbeatMs } = { ...DEFAULTS, ...options };
  return async (app) => {
    const watch = new PrinterWatch(ctx, printerCheckMs);
    const open = new Set<ServerResponse>();
    // before the server stops taking connections, which waits for every open one to end
    app.addHook('preClose', async () => {
      for (const raw of open) raw.end();
    });

    app.get('/v1/desk/events', {
      schema: {
        tags: ['Desk'], operationId: 'streamDeskEvents',
        summary: 'Server-Sent Events of what changed for a signed-in desk (printer, print_job, shipment); desk sessions only',
        response: {
          200: { description: 'An event stream', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errorResponses(401, 429),
        },
      },
    }, async (request, reply) => {
      const session = request.deskSession;
      if (!session) throw new UnauthorizedError('The event stream is for a signed-in desk (the session cookie), not an API key.');
      const token = cookieValue(request, deskCookieName(request))!;
      const accountId = session.caller.account.id;
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
      raw.write('retry: 2000\n\n');
      send(raw, 'ready', { account_id: accountId });

      const onChange = (change: DeskChange) => {
        if (change.accountId === accountId) send(raw, change.kind, { id: change.id });
      };
      const heartbeat = setInterval(() => {
        deskSessionOf(ctx, token) // a session that ended or a key revoked closes the stream
          .then(() => {
            if (!raw.writableEnded) raw.write(': still here\n\n');
          })
          .catch(() => raw.end());
      }, heartbeatMs);
      heartbeat.unref();
      ctx.notices.on(DESK_CHANGED, onChange);
      watch.add(accountId);
      open.add(raw);
      raw.on('close', () => {
        open.delete(raw);
        clearInterval(heartbeat);
        ctx.notices.off(DESK_CHANGED, onChange);
        watch.remove(accountId);
      });
    });
  };
}
