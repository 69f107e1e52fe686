import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { createOrder } from '../../src/services/orders.js';
import type { TestAccount, TestDaemon } from '../helpers/harness.js';
import { csvText, finishedImports, orderRow, readCsvFile, type ImportRecord } from '../helpers/order-files.js';
import { type PplStation, startPplStation } from '../helpers/shipments.js';

interface ImportCounts extends ImportRecord {
  created: number;
  refused_by_carrier: number;
  awaiting_carrier: number;
  invalid: number;
  queued: number;
}

/** The result file's lines by status: what the ERP reads of the import. */
function linesByStatus(resultPath: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of readCsvFile(resultPath)) counts[line.status!] = (counts[line.status!] ?? 0) + 1;
  return counts;
}

const countsOf = (r: ImportCounts) => ({
  created: r.created, refused_by_carrier: r.refused_by_carrier, awaiting_carrier: r.awaiting_carrier, invalid: r.invalid, queued: r.queued,
});

describe('an import counts its orders as its result file names them: created, refused by the carrier, invalid, queued', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;
  let station: PplStation;
  let folder: { id: string; folders: { in: string } };
  let record: ImportCounts;
  const root = mkdtempSync(join(tmpdir(), 'packdesk-counts-'));

  const importById = async (id: string) => (await a.request('GET', `/v1/imports/${id}`)).json().data as ImportCounts;
  const listed = async (id: string) => ((await a.request('GET', `/v1/imports?watched_folder_id=${folder.id}`)).json().data as ImportCounts[]).find((i) => i.id === id)!;

  beforeAll(async () => {
    ({ d, emu, a, channel } = station = await startPplStation('Counting shop'));
    const res = await a.request('POST', '/v1/watched-folders', { path: join(root, 'erp'), shipping_channel_id: channel, label_format: 'pdf' });
    expect(res.statusCode, res.body).toBe(201);
    folder = res.json().data;
    d.workers.start();
  });
  afterAll(async () => {
    await station.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a file of 3 good orders, 1 the carrier refuses and 1 invalid row reads created 3, refused by the carrier 1, invalid 1, queued 0', async () => {
    writeFileSync(join(folder.folders.in, 'orders.csv'), csvText([
      orderRow('CNT-1'), orderRow('CNT-2'), orderRow('CNT-3'),
      // a Czech code's shape, but no post office has it: the carrier refuses the shipment
      orderRow('CNT-4', { destination_address_postal_code: '79999' }),
      orderRow('CNT-5', { recipient_contact_email_address: 'not-an-email' }),
    ]));
    const [finished] = await finishedImports(a, folder.id, 1);
    const lines = readCsvFile(finished!.result_path!);
    expect(lines.map((l) => [l.reference_number, l.status])).toEqual([
      ['CNT-1', 'created'], ['CNT-2', 'created'], ['CNT-3', 'created'], ['CNT-4', 'failed'], ['CNT-5', 'error'],
    ]);
    record = await importById(finished!.id);
    expect(countsOf(record)).toEqual({ created: 3, refused_by_carrier: 1, awaiting_carrier: 0, invalid: 1, queued: 0 });
    // the same figures as the result file's lines
    const byStatus = linesByStatus(finished!.result_path!);
    expect([record.created, record.refused_by_carrier, record.invalid]).toEqual([byStatus.created, byStatus.failed, byStatus.error]);
    // the older figures keep their meaning: shipments stored (refused ones too), rows that became none
    expect(record).toMatchObject({ rows: 5, shipments_created: 4, failed_rows: 1, orders_already_imported: 0 });
    expect(countsOf(await listed(record.id))).toEqual(countsOf(record));
  });

  it('follows the shipments: the refused order, corrected and created at the carrier, counts as created', async () => {
    const refused = readCsvFile(record.result_path!).find((l) => l.status === 'failed')!;
    const fixed = await a.request('PATCH', `/v1/shipments/${refused.shipment_id}`, {
      destination_address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    // corrected, it is at the carrier again (or already created there)
    const corrected = await importById(record.id);
    expect([corrected.refused_by_carrier, corrected.created + corrected.awaiting_carrier]).toEqual([0, 4]);
    const shipment = (await a.request('GET', `/v1/shipments/${refused.shipment_id}?wait=10`)).json().data as { status: string };
    expect(shipment.status).toBe('created');
    expect(countsOf(await importById(record.id))).toEqual({ created: 4, refused_by_carrier: 0, awaiting_carrier: 0, invalid: 1, queued: 0 });
    expect(countsOf(await listed(record.id))).toEqual({ created: 4, refused_by_carrier: 0, awaiting_carrier: 0, invalid: 1, queued: 0 });
  });

  it('counts the orders an import queued for the packer, from the order queue', async () => {
    const draft = Object.fromEntries(Object.entries(orderRow('CNT-Q')).filter(([k]) => !k.startsWith('parcel_') && !k.startsWith('cash_on_')));
    const body = {
      reference_number: 'CNT-Q',
      ...Object.fromEntries(['sender_contact', 'recipient_contact', 'origin_address', 'destination_address'].map((party) => [party,
        Object.fromEntries(Object.entries(draft).filter(([k]) => k.startsWith(`${party}_`)).map(([k, v]) => [k.slice(party.length + 1), String(v)]))])),
    };
    await createOrder(d.ctx, a.id, body, undefined, record.id);
    await createOrder(d.ctx, a.id, { ...body, reference_number: 'CNT-Q2' }, undefined, record.id);
    expect((await importById(record.id)).queued).toBe(2);
    expect((await listed(record.id)).queued).toBe(2);
  });
});
