import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { monitorEventLoopLag } from '../../daemon/http/event-loop.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel } from '../helpers/shipments.js';

/**
 * Hostile order files on the daemon's default limits: while each is imported, the event loop keeps answering (p99 of
 * its lag under 100 ms), and each import ends, failed with its reason.
 */
describe('the event loop while hostile order files are imported', () => {
  let d: TestDaemon;
  let a: TestAccount;
  let emu: RunningEmulators;
  let channel: string;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon();
    a = await d.account('Hostile files warehouse');
    channel = await pplChannel(a, emu.urls.ppl!);
    d.workers.imports.start();
  });
  afterAll(async () => {
    await d.workers.stop();
    await d.close();
    await emu.close();
  });

  /**
   * Uploads `content`, then measures the event loop from the upload's answer (its JSON was parsed before) until the
   * import ended `failed`: what is measured is the import. Answers the import and its errors.
   */
  async function importFailing(content: Buffer) {
    const res = await a.request('POST', '/v1/imports', { file_name: 'orders.csv', content_base64: content.toString('base64'), shipping_channel_id: channel });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id as string;
    const lag = monitorEventLoopLag({ windowMs: 3_600_000 });
    try {
      await vi.waitFor(async () => expect((await a.request('GET', `/v1/imports/${id}`)).json().data.status).toBe('failed'), { timeout: 250_000, interval: 100 });
      expect(lag.reading().p99).toBeLessThan(100);
    } finally {
      lag.stop();
    }
    return {
      imported: (await a.request('GET', `/v1/imports/${id}`)).json().data as Record<string, unknown>,
      errors: (await a.request('GET', `/v1/imports/${id}/errors`)).json().data as { row: number; field: string; message: string }[],
    };
  }

  const files: [string, () => Buffer, RegExp][] = [
    ['one 30 MB line', () => Buffer.concat([Buffer.from('reference_number,recipient_contact_last_name\n'), Buffer.alloc(30_000_000, 'x')]), /^line 2 is longer than 65,536 characters$/],
    ['a million columns', () => Buffer.from(`${'a,'.repeat(1_000_000)}\n1\n`), /^line 1 is longer than 65,536 characters$/],
    ['3 million short rows', () => Buffer.from(`reference_number\n${'x\n'.repeat(3_000_000)}`), /^has more than 100,000 order rows$/],
  ];

  it.each(files)('%s', { timeout: 120_000 }, async (_name, content, reason) => {
    const { errors } = await importFailing(content());
    expect(errors).toEqual([expect.objectContaining({ field: 'file', message: expect.stringMatching(reason) })]);
  });

  it('one order of 5,000 rows: refused as more parcels than a shipment takes, without checking each', { timeout: 300_000 }, async () => {
    // a quote opened on every line: each pair of lines reads as the same reference, with a line break in it
    const { imported, errors } = await importFailing(Buffer.from(`reference_number\n${'"a\n'.repeat(10_000)}`));
    expect(imported).toMatchObject({ rows: 5_000, failed_rows: 5_000, shipments_created: 0 });
    expect(errors).toEqual([expect.objectContaining({ row: 2, field: 'parcels', message: 'has 5000 rows (one parcel each); a shipment takes at most 50 parcels' })]);
  });

  it('100,000 rows of invalid orders: each is reported, and the loop keeps answering', { timeout: 300_000 }, async () => {
    // rows without a reference number belong to no order: each is a problem of its own in the errors file
    const { imported, errors } = await importFailing(Buffer.from(`reference_number,recipient_contact_last_name\n${',Novák\n'.repeat(100_000)}`));
    expect(imported).toMatchObject({ rows: 100_000, failed_rows: 100_000 });
    expect(errors).toHaveLength(100_000);
    expect(errors[99_999]).toMatchObject({ row: 100_001, field: 'reference_number' });
  });
});
