import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { startStation, type Station } from '../helpers/cli.js';
import { nextWorkingDay } from '../helpers/dispatch-adapter.js';
import { parcelsOf, shipmentBody } from '../helpers/shipments.js';

interface Shipped { id: string; status: string; parcels: { tracking_number: string }[] }
interface Dispatch { id: string; status: string; shipping_channel_id: string; shipments_count: number; parcels_count: number; document_source: string | null }
interface Outcome { dispatch: Dispatch; document_file: { path: string; size: number } | null; print_job: { status: string } | null }

// each dispatch waits for the daemon's hand-over worker: several commands' worth of real time
describe('packdesk dispatch and dispatches: the end of the day from the command line', { timeout: 90_000 }, () => {
  let station: Station;
  let pplMain: string;
  let pplReturns: string;
  const numbersOf: Record<string, string[]> = {};

  /** A shipment created at the PPL emulator by the daemon's worker, as `ship` leaves it. */
  const ship = async (channel: string, reference: string, overrides: Record<string, unknown> = {}): Promise<Shipped> => {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(station.daemonUrl + path, {
        method, headers: { authorization: `Bearer ${station.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.ok, await res.clone().text()).toBe(true);
      return ((await res.json()) as { data: Shipped }).data;
    };
    const made = await call('POST', '/v1/shipments', shipmentBody(channel, { reference_number: reference, ...overrides }));
    const created = await call('GET', `/v1/shipments/${made.id}?wait=30`);
    expect(created.status).toBe('created');
    (numbersOf[channel] ??= []).push(...created.parcels.map((p) => p.tracking_number));
    return created;
  };

  beforeAll(async () => {
    station = await startStation({ ppl: true, account: 'Sklad Ostrava' });
    pplMain = (await station.addPplChannel('PPL main')).id;
    pplReturns = (await station.addPplChannel('PPL returns')).id;
  });
  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  it('dispatch with nothing waiting says so and exits 0', async () => {
    const result = await station.cli(['dispatch']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^nothing waits for a dispatch/);
    expect(await station.cliJson(['dispatch', '--json'])).toEqual([]);
    const channel = await station.cli(['dispatch', '--channel', pplMain]);
    expect(channel.code).toBe(0);
    expect(channel.stdout).toBe(`nothing waits for a dispatch on PPL main (${pplMain}, ppl)\n`);
    expect((await station.cli(['dispatch', '--channel', 'ch_missing'])).code).toBe(3);
  });

  it('--pickup on a past day is refused with the API’s reason, and a malformed window before asking; nothing is dispatched', async () => {
    await ship(pplMain, 'EOD-CLI-1');
    await ship(pplMain, 'EOD-CLI-2', { parcels: parcelsOf(2), cash_on_delivery_amount: 1249.9, cash_on_delivery_currency: 'CZK' });
    const refused = await station.cli(['dispatch', '--channel', pplMain, '--pickup', '2020-11-26 14:00-16:00']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ {2}pickup\.date: is in the past/m);
    const malformed = await station.cli(['dispatch', '--pickup', 'tomorrow afternoon']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/--pickup must be a day and a time window/);
    expect((await station.cliJson<{ data: unknown[] }>(['dispatches', 'list', '--json'])).data).toEqual([]);
    // PPL books couriers in any window it publishes none of; a past day is the API's refusal of the flag
    const day = nextWorkingDay();
    const windows = await station.cli(['dispatches', 'windows', '--channel', pplMain, '--date', day]);
    expect(windows).toMatchObject({ code: 0, stdout: `the carrier publishes no courier windows: ask for any with packdesk dispatch --channel ${pplMain} --pickup "${day} HH:MM-HH:MM"\n` });
    const pastWindows = await station.cli(['dispatches', 'windows', '--channel', pplMain, '--date', '2020-01-01']);
    expect(pastWindows.code).toBe(2);
    expect(pastWindows.stderr).toMatch(/^ {2}date: is in the past/m);
  });

  it('dispatch hands every waiting channel over, one dispatch each, and saves documents whose barcodes are every parcel', async () => {
    await ship(pplReturns, 'EOD-CLI-3');
    const outDir = join(station.tmp, 'protocols');
    mkdirSync(outDir);
    const oneFile = await station.cli(['dispatch', '--out', join(outDir, 'today.pdf')]);
    expect(oneFile.code).toBe(2);
    expect(oneFile.stderr).toMatch(/--out names one file, but 2 channels have shipments waiting/);

    const result = await station.cli(['dispatch', '--out-dir', outDir]);
    expect(result.code, result.stderr).toBe(0);
    const reports = result.stdout.split('\n\n');
    expect(reports).toHaveLength(2);
    const main = reports.find((r) => r.includes(`PPL main (${pplMain}, ppl)`))!;
    const returns = reports.find((r) => r.includes(`PPL returns (${pplReturns}, ppl)`))!;
    const idOf = (report: string) => /^dispatch\s+(dp_\w+)$/m.exec(report)![1]!;
    expect(main).toMatch(/^status\s+dispatched$/m);
    expect(main).toMatch(/^shipments\s+2$/m);
    expect(main).toMatch(/^parcels\s+3$/m);
    expect(main).toMatch(/^weight\s+4\.5 kg$/m);
    expect(main).toMatch(/^cash on delivery\s+1249\.90 CZK$/m);
    expect(main).toMatch(new RegExp(`^document\\s+${join(outDir, `${idOf(main)}.pdf`)}\\s+\\(packdesk's hand-over list, [\\d.]+ KiB\\)$`, 'm'));
    expect(returns).toMatch(/^status\s+dispatched$/m);
    expect(returns).toMatch(/^cash on delivery\s+none$/m);

    for (const [report, channel] of [[main, pplMain], [returns, pplReturns]] as const) {
      const barcodes = (await decodePdfBarcodes(readFileSync(join(outDir, `${idOf(report)}.pdf`)))).flat().sort();
      expect(barcodes).toEqual([...numbersOf[channel]!].sort());
    }
    expect((await station.cli(['dispatch'])).stdout).toMatch(/^nothing waits for a dispatch/);
  });

  it("dispatch --print --json of one channel: the document saved and printed on the station's PDF printer", async () => {
    await ship(pplMain, 'EOD-CLI-4');
    const folder = join(station.tmp, 'office-printer');
    const printer = await station.cliJson<{ id: string }>(['printers', 'add', '--name', 'Office', '--uri', pathToFileURL(folder).href, '--format', 'pdf', '--json']);
    expect((await station.cli(['stations', 'set', '--printer', `pdf=${printer.id}`])).code).toBe(0);

    const [outcome] = await station.cliJson<Outcome[]>(['dispatch', '--channel', pplMain, '--print', '--out', 'evening.pdf', '--json']);
    expect(outcome).toMatchObject({
      dispatch: { status: 'dispatched', shipments_count: 1, parcels_count: 1, document_source: 'packdesk' },
      print_job: { kind: 'dispatch_document', dispatch_id: outcome!.dispatch.id, printer_id: printer.id, status: 'printed' },
    });
    expect(outcome!.document_file!.path).toBe(join(station.desk, 'evening.pdf'));
    const document = readFileSync(join(station.desk, 'evening.pdf'));
    expect((await decodePdfBarcodes(document)).flat()).toEqual(numbersOf[pplMain]!.slice(-1));
    expect(readFileSync(join(folder, readdirSync(folder)[0]!)).equals(document)).toBe(true);
  });

  it('dispatches list, show and document', async () => {
    const list = await station.cliJson<{ data: Dispatch[]; meta: { total: number } }>(['dispatches', 'list', '--channel', pplMain, '--json']);
    expect(list.meta.total).toBe(2);
    expect(list.data.map((d) => d.status)).toEqual(['dispatched', 'dispatched']);
    const table = await station.cli(['dispatches', 'list', '--status', 'dispatched']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('page 1 of 1, 3 in all');
    expect((await station.cli(['dispatches', 'list', '--status', 'lost'])).code).toBe(2);

    const first = list.data.at(-1)!;
    const shown = await station.cli(['dispatches', 'show', first.id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^document\s+packdesk's hand-over list$/m);
    for (const number of numbersOf[pplMain]!.slice(0, 3)) expect(shown.stdout).toContain(number);
    expect(shown.stdout).toContain('EOD-CLI-2');
    expect((await station.cliJson<Dispatch>(['dispatches', 'show', first.id, '--json'])).parcels_count).toBe(3);
    expect((await station.cli(['dispatches', 'show', 'dp_missing'])).code).toBe(3);

    const saved = await station.cli(['dispatches', 'document', first.id]);
    expect(saved.stdout).toMatch(new RegExp(`^saved ${join(station.desk, `${first.id}.pdf`)} \\([\\d.]+ KiB\\)\n$`));
    const document = readFileSync(join(station.desk, `${first.id}.pdf`));
    expect((await decodePdfBarcodes(document)).flat().sort()).toEqual(numbersOf[pplMain]!.slice(0, 3).sort());
    const retried = await station.cli(['dispatches', 'retry', first.id]);
    expect(retried.code).toBe(1);
    expect(retried.stderr).toMatch(/only a failed dispatch can be retried/);
    expect(existsSync(join(station.desk, 'dp_missing.pdf'))).toBe(false);
    expect((await station.cli(['dispatches', 'document', 'dp_missing'])).code).toBe(3);
  });
});
