import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { carrierFetch } from '../../src/carriers/http.js';

/**
 * A carrier that answers slowly holds one connection per call in flight. The creation pool bounds how many calls
 * are in flight, so the carrier client must open as many connections to one carrier as the pool has calls: a cap of
 * its own would queue the rest behind it, and a larger pool would ship no faster.
 */
describe('calls in flight to one slow carrier', () => {
  let carrier: Server;
  let base: string;
  const held: ServerResponse<IncomingMessage>[] = [];
  let answering = false;
  const answer = (res: ServerResponse<IncomingMessage>) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');

  beforeAll(async () => {
    // answers only once the test lets it, like a carrier that takes its time over every call
    carrier = createServer((_req, res) => (answering ? answer(res) : held.push(res)));
    await new Promise<void>((resolve) => carrier.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(carrier.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    carrier.closeAllConnections();
    await new Promise((resolve) => carrier.close(resolve));
  });

  it('all reach the carrier at once, however many a large creation pool sends', async () => {
    const pool = 96;
    const log = pino({ level: 'silent' });
    const calls = Array.from({ length: pool }, (_, i) => carrierFetch(log, 'ppl', { method: 'GET', url: `${base}/shipment/${i}` }));
    // a cap keeps the calls beyond it from reaching the carrier until one in flight is answered
    await vi.waitFor(() => expect(held.length).toBe(pool), { timeout: 5_000, interval: 20 }).catch(() => undefined);
    const reachedBeforeAnyAnswer = held.length;
    answering = true;
    held.splice(0).forEach(answer);
    const answers = await Promise.all(calls);
    expect(reachedBeforeAnyAnswer, 'calls at the carrier before any was answered').toBe(pool);
    expect(answers.map((a) => a.status)).toEqual(Array(pool).fill(200));
  });
});
