import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type Station } from '../helpers/cli.js';
import { startZebra, type ZebraPrinter } from '../helpers/zebra.js';

interface Printer { id: string; name: string; status: string; formats: string[]; default_for: string[]; status_detail: Record<string, unknown> | null }
interface Job { id: string; status: string; format: string; copies: number; attempts: number; error: string | null; shipment_id: string | null; kind: string }
interface Shipped { id: string; status: string; label_format: string; print_job?: Job | null }

const SENDER = {
  contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
  address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
};

// stories of several commands that wait on a printer coming back need more than the default 30 s
describe('packdesk printers, jobs, shipments print and ship printing against a real daemon', { timeout: 90_000 }, () => {
  let station: Station;
  let tmp: string;
  let channelId: string;
  let senderFile: string;
  let zebra: ZebraPrinter;
  let zebraPrinter: Printer;
  let folderPrinter: Printer;
  let folder: string;

  const shipFlags = (reference: string, extra: string[] = []) => [
    'ship', '--channel', channelId, '--format', 'zpl', '--reference', reference, '--recipient-name', 'Jana Nováková',
    '--recipient-email', 'jana@example.cz', '--recipient-phone', '+420604555666', '--street', 'Nádražní', '--house-number', '7',
    '--city', 'Ostrava', '--postal-code', '70200', '--parcel', '1x20x20x20', '--sender-json', senderFile, '--out', join(tmp, `${reference}.zpl`), ...extra,
  ];
  const rawLabel = async (id: string) => {
    const res = await fetch(`${station.daemonUrl}/v1/shipments/${id}/label?download=1`, { headers: { authorization: `Bearer ${station.apiKey}` } });
    return Buffer.from(await res.arrayBuffer());
  };
  const occurrences = (haystack: Buffer, needle: Buffer) => {
    let n = 0;
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) n += 1;
    return n;
  };

  beforeAll(async () => {
    station = await startStation({ ppl: true, account: 'Desk Ostrava' });
    tmp = station.tmp;
    folder = join(tmp, 'labels');
    senderFile = join(tmp, 'sender.json');
    writeFileSync(senderFile, JSON.stringify(SENDER));
    zebra = await startZebra();
    channelId = (await station.addPplChannel()).id;
  });

  afterAll(async () => {
    await zebra?.stop();
    if (station) expect(await station.stop()).toBe(0);
  });

  it('printers add: a Zebra as the default for its formats, and a folder; bad input exits 1 or 2', async () => {
    zebraPrinter = await station.cliJson<Printer>(['printers', 'add', '--name', 'Zebra', '--uri', zebra.uri, '--format', 'zpl,epl', '--default', '--json']);
    expect(zebraPrinter).toMatchObject({ name: 'Zebra', formats: ['zpl', 'epl'], default_for: ['zpl', 'epl'], status: 'ready' });
    folderPrinter = await station.cliJson<Printer>(['printers', 'add', '--name', 'Folder', '--uri', pathToFileURL(folder).href, '--format', 'pdf', '--format', 'zpl', '--json']);
    expect(folderPrinter).toMatchObject({ default_for: [], status: 'ready' });

    const badUri = await station.cli(['printers', 'add', '--name', 'Bad', '--uri', 'lpd://x/q', '--format', 'zpl']);
    expect(badUri.code).toBe(1);
    expect(badUri.stderr).toMatch(/^ {2}uri: scheme lpd is not supported/m);
    expect((await station.cli(['printers', 'add', '--name', 'No format', '--uri', zebra.uri])).code).toBe(2);
    expect((await station.cli(['printers', 'add', '--name', 'Gif', '--uri', zebra.uri, '--format', 'gif'])).code).toBe(2);
  });

  it('printers list and show: the table, JSON, and paper out from the Zebra host status', async () => {
    const list = await station.cliJson<{ data: Printer[]; meta: { total: number } }>(['printers', 'list', '--json']);
    expect(list.data.map((p) => p.name)).toEqual(['Folder', 'Zebra']);
    const table = await station.cli(['printers', 'list']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(zebra.uri);
    expect(table.stdout).toContain('page 1 of 1, 2 in all');

    zebra.flags.paperOut = true;
    const human = await station.cli(['printers', 'show', zebraPrinter.id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/status\s+offline: paper out/);
    expect(human.stdout).toMatch(/paper out\s+yes/);
    zebra.flags.paperOut = false;
    expect((await station.cliJson<Printer>(['printers', 'show', zebraPrinter.id, '--json'])).status).toBe('ready');
    expect((await station.cli(['printers', 'show', 'prn_nope'])).code).toBe(3);
  });

  it('printers test prints a ZPL and an EPL test label and waits for them', async () => {
    zebra.clear();
    const result = await station.cli(['printers', 'test', zebraPrinter.id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.match(/^printed test label \((zpl|epl), pj_\w+\) on prn_/gm)).toHaveLength(2);
    const printed = zebra.labelBytes().toString('utf8');
    expect(printed).toContain('^FH\\^FDDesk Ostrava^FS');
    expect(printed).toContain('"Desk Ostrava"');
  });

  it('printers default moves a format to another printer', async () => {
    const result = await station.cli(['printers', 'default', folderPrinter.id, '--format', 'pdf']);
    expect(result.stdout).toBe(`Folder (${folderPrinter.id}) is the default printer for pdf\n`);
    expect((await station.cliJson<Printer>(['printers', 'show', folderPrinter.id, '--json', '--cached'])).default_for).toEqual(['pdf']);
  });

  it("ship prints the label on the station's printer for its format (the default one), once, where the station auto-prints", async () => {
    const quiet = await station.cli(shipFlags('SHIP-QUIET-1'));
    expect(quiet.stdout).toMatch(/^not printed: station \S+ does not print labels on creation \(auto-print is off/m);
    expect((await station.cli(['stations', 'set', '--auto-print', 'on'])).code).toBe(0);
    zebra.clear();
    const result = await station.cli(shipFlags('SHIP-PRINT-1'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^printed label \(zpl, pj_\w+\) on Zebra$/m);
    const id = /shipment\s+(sh_\w+)/.exec(result.stdout)![1]!;
    const label = await rawLabel(id);
    expect(zebra.labelBytes().equals(label)).toBe(true);
    expect(readFileSync(join(tmp, 'SHIP-PRINT-1.zpl')).equals(label)).toBe(true);
  });

  it('ship while the printer is down: the job is kept, and the label prints once after the printer is back', async () => {
    await zebra.stop();
    zebra.clear();
    const shipped = await station.cliJson<Shipped>(shipFlags('SHIP-DOWN', ['--json']));
    expect(shipped.status).toBe('created');
    expect(shipped.print_job).toMatchObject({ status: 'queued', attempts: 1, shipment_id: shipped.id });
    expect(shipped.print_job!.error).toContain('ECONNREFUSED');
    const human = await station.cli(['jobs', 'show', shipped.print_job!.id]);
    expect(human.stdout).toMatch(/status\s+queued/);

    await zebra.start();
    const deadline = Date.now() + 30_000;
    let job = shipped.print_job!;
    while (job.status !== 'printed' && Date.now() < deadline) {
      await sleep(250);
      const res = await fetch(`${station.daemonUrl}/v1/print-jobs/${job.id}`, { headers: { authorization: `Bearer ${station.apiKey}` } });
      job = ((await res.json()) as { data: Job }).data;
    }
    expect(job.status).toBe('printed');
    expect((await station.cliJson<Job>(['jobs', 'show', job.id, '--json'])).attempts).toBeGreaterThanOrEqual(2);
    await sleep(500);
    expect(occurrences(zebra.labelBytes(), await rawLabel(shipped.id))).toBe(1);
    expect(zebra.labelBytes().length).toBe((await rawLabel(shipped.id)).length);
  }, 90_000);

  it('ship --no-print only saves the label; ship --printer --copies picks another printer', async () => {
    zebra.clear();
    const quiet = await station.cliJson<Shipped & { not_printed?: string }>(shipFlags('NO-PRINT', ['--no-print', '--json']));
    expect(quiet).toMatchObject({ print_job: null, not_printed: '--no-print was given' });
    const told = await station.cli(shipFlags('NO-PRINT-2', ['--no-print']));
    expect(told.code, told.stderr).toBe(0);
    expect(told.stdout).toMatch(/^not printed: --no-print was given$/m);
    const jobs = await station.cliJson<{ data: Job[] }>(['jobs', 'list', '--shipment', quiet.id, '--json']);
    expect(jobs.data).toEqual([]);
    const copies = await station.cliJson<Shipped>(shipFlags('TO-FOLDER', ['--printer', folderPrinter.id, '--copies', '2', '--json']));
    expect(copies.print_job).toMatchObject({ status: 'printed', copies: 2, format: 'zpl' });
    expect(existsSync(join(folder, `${copies.print_job!.id}-2.zpl`))).toBe(true);
    expect(zebra.labelBytes().length).toBe(0);
  });

  it('shipments print sends a stored label again, to a printer and in copies', async () => {
    const shipped = await station.cliJson<Shipped>(shipFlags('REPRINT', ['--no-print', '--json']));
    zebra.clear();
    const job = await station.cliJson<Job>(['shipments', 'print', shipped.id, '--copies', '2', '--json']);
    expect(job).toMatchObject({ status: 'printed', copies: 2, shipment_id: shipped.id });
    const label = await rawLabel(shipped.id);
    expect(zebra.labelBytes().equals(Buffer.concat([label, label]))).toBe(true);
    const human = await station.cli(['shipments', 'print', shipped.id, '--printer', folderPrinter.id]);
    expect(human.stdout).toMatch(/^printed label \(zpl, pj_\w+\) on prn_\w+$/m);
    expect((await station.cli(['shipments', 'print', shipped.id, '--copies', '50'])).code).toBe(2);
    expect((await station.cli(['shipments', 'print', 'sh_nope'])).code).toBe(3);
  });

  it('jobs list, show and retry', async () => {
    const list = await station.cliJson<{ data: Job[]; meta: { total: number } }>(['jobs', 'list', '--status', 'printed', '--printer', zebraPrinter.id, '--json']);
    expect(list.data.length).toBeGreaterThanOrEqual(4);
    expect(list.data.every((j) => j.status === 'printed')).toBe(true);
    const table = await station.cli(['jobs', 'list', '--per-page', '100']);
    expect(table.stdout).toContain('(test)');
    expect(table.stdout).toMatch(/page 1 of 1, \d+ in all/);
    const shown = await station.cli(['jobs', 'show', list.data[0]!.id]);
    expect(shown.stdout).toMatch(/status\s+printed/);
    const retry = await station.cli(['jobs', 'retry', list.data[0]!.id]);
    expect(retry.code).toBe(1);
    expect(retry.stderr).toContain('only a failed print job can be retried (this one is printed)');
    expect((await station.cli(['jobs', 'show', 'pj_nope'])).code).toBe(3);
  });

  it('printers remove', async () => {
    const removed = await station.cli(['printers', 'remove', folderPrinter.id]);
    expect(removed.stdout).toBe(`removed ${folderPrinter.id}\n`);
    expect((await station.cli(['printers', 'show', folderPrinter.id])).code).toBe(3);
  });

  it('printers add --status-query none for a printer that never answers ~HS; printers update sets it, and auto shows the hint', async () => {
    const silent = await startZebra({}, false);
    try {
      const added = await station.cliJson<Printer & { status_query: string }>([
        'printers', 'add', '--name', 'Generic ZPL', '--uri', silent.uri, '--format', 'zpl', '--status-query', 'none', '--json',
      ]);
      expect(added).toMatchObject({ status_query: 'none', status: 'ready', status_detail: { protocol: 'connect_only' } });
      const shown = await station.cli(['printers', 'show', added.id]);
      expect(shown.stdout).toMatch(/^status query\s+none$/m);
      expect((await station.cli(['printers', 'list'])).stdout).toMatch(/status query/);
      expect((await station.cli(['printers', 'add', '--name', 'Never', '--uri', silent.uri, '--format', 'zpl', '--status-query', 'never'])).code).toBe(2);

      const asked = await station.cli(['printers', 'update', added.id, '--status-query', 'auto']);
      expect(asked.code, asked.stderr).toBe(0);
      expect(asked.stdout).toMatch(/^status query\s+auto$/m);
      expect(asked.stdout).toContain(`did not answer ~HS within 3 s; if it is not a Zebra, set status_query none (packdesk printers update ${added.id} --status-query none)`);
      expect((await station.cli(['printers', 'update', added.id])).code).toBe(2);
      expect((await station.cli(['printers', 'update', added.id, '--status-query', 'none'])).stdout).toMatch(/^status\s+ready$/m);
      expect((await station.cli(['printers', 'remove', added.id])).code).toBe(0);
    } finally {
      await silent.stop();
    }
  });
});
