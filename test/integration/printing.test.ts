import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { printers, printJobs, shipments } from '../../src/store/schema.js';
import { queuePrintJob } from '../../src/services/printing/print-jobs.js';
import { PrintQueueWorker } from '../../daemon/workers/print-queue.js';
import { findProvider } from '../../src/carriers/registry.js';
import { decodeEplBarcodes, decodePdfBarcodes, decodePngBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { startTestDaemon, TEST_DIALECT, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { ippSkipReason, startIppPrinter, type IppPrinter } from '../helpers/ipp-server.js';
import { parcelsOf, pplChannel, shipmentBody } from '../helpers/shipments.js';
import { startZebra, type ZebraPrinter } from '../helpers/zebra.js';

interface Job { id: string; status: string; attempts: number; error: string | null; printer_id: string; shipment_id: string | null; format: string; copies: number; printed_at: string | null; kind: string; expires_at: string; next_attempt_at: string | null }

describe('printing: printers, raw ZPL/EPL, files, IPP and the durable print queue', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let other: TestAccount;
  let channel: string;
  let zebra: ZebraPrinter;
  let zebraId: string;
  let folder: string;

  const job = async (id: string): Promise<Job> => (await a.request('GET', `/v1/print-jobs/${id}`)).json().data;
  const rawLabel = async (id: string): Promise<Buffer> => (await a.request('GET', `/v1/shipments/${id}/label?download=1`)).rawPayload;
  /** A created shipment (the carrier step run) in a label format. */
  const createdShipment = async (format: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, { label_format: format, reference_number: `P-${Math.random().toString(36).slice(2, 8)}`, ...extra }));
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    return res.json().data.id;
  };
  const addPrinter = async (body: Record<string, unknown>) => {
    const res = await a.request('POST', '/v1/printers', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl', 'mrw'], port: 0 });
    d = await startTestDaemon({ carrierTimeoutMs: 1500 });
    a = await d.account('Sklad Praha – Řepy');
    other = await d.account('Other shop');
    channel = await pplChannel(a, emu.urls.ppl!);
    zebra = await startZebra();
    folder = mkdtempSync(join(tmpdir(), 'packdesk-print-folder-'));
    zebraId = (await addPrinter({ name: 'Zebra ZD421', uri: zebra.uri, formats: ['zpl', 'epl'], default_for: ['zpl'] })).id;
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
    await zebra?.stop();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(() => {
    zebra.flags = { paperOut: false, paused: false, headOpen: false };
  });

  describe('the printers resource', () => {
    it('adds a raw printer, asks its host status at once, and lists it with filters', async () => {
      const shown = (await a.request('GET', `/v1/printers/${zebraId}`)).json().data;
      expect(shown).toMatchObject({
        name: 'Zebra ZD421', uri: zebra.uri, formats: ['zpl', 'epl'], default_for: ['zpl'], status: 'ready',
        status_detail: { reachable: true, problems: [], paper_out: false, head_open: false, paused: false, protocol: 'zebra_host_status' },
      });
      expect(shown.id).toMatch(/^prn_/);
      expect(shown.last_seen_at).toBe('2026-11-20T09:00:00Z');
      const byFormat = (await a.request('GET', '/v1/printers?format=epl')).json();
      expect(byFormat.data.map((p: { id: string }) => p.id)).toContain(zebraId);
      expect((await a.request('GET', '/v1/printers?format=pdf&default_for=zpl')).json().data).toEqual([]);
      expect((await a.request('GET', '/v1/printers?status=nope')).statusCode).toBe(422);
    });

    it('reports paper out, head open and paused from ~HS in GET /v1/printers/{id}', async () => {
      zebra.flags = { paperOut: true, paused: true, headOpen: true };
      const shown = (await a.request('GET', `/v1/printers/${zebraId}`)).json().data;
      expect(shown.status).toBe('offline');
      expect(shown.status_detail).toMatchObject({ reachable: true, paper_out: true, paused: true, head_open: true });
      expect(shown.status_detail.problems).toEqual(['head_open', 'paper_out', 'paused']);
      expect(shown.status_detail.message).toBe('print head open, paper out, paused');
      const cached = (await a.request('GET', `/v1/printers/${zebraId}?refresh=false`)).json().data;
      expect(cached.status).toBe('offline');
    });

    it('refuses bad input with 422 naming every field, and keeps names unique', async () => {
      const bad = await a.request('POST', '/v1/printers', { name: 'Zebra ZD421', uri: 'lpd://host/queue', formats: ['zpl', 'gif'], default_for: ['pdf'] });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(['default_for', 'formats.1', 'name', 'uri']);
      expect(bad.json().errors.uri[0]).toContain('lpd');
      const pdfOnRaw = await a.request('POST', '/v1/printers', { name: 'Raw', uri: 'tcp://10.0.0.5', formats: ['pdf'] });
      expect(pdfOnRaw.json().errors).toEqual({ formats: ['a tcp printer takes zpl, epl, not pdf'] });
      const missing = await a.request('POST', '/v1/printers', { name: 'Nothing' });
      expect(missing.json().errors).toEqual({ uri: ['is required'], formats: ['is required'] });
      const relative = await a.request('POST', '/v1/printers', { name: 'Folder', uri: 'file://host/labels', formats: ['pdf'] });
      expect(relative.statusCode).toBe(422);
    });

    it('refuses a file URI with %2f, a stray % or %zz in its path with 422 on uri, when added and when changed', async () => {
      const base = pathToFileURL(folder).href;
      const refusals = {
        [`${base}/a%2fb`]: 'file URIs must not hold an encoded slash (%2F): write / between directories',
        [`${base}/%`]: 'file URIs may use % only to escape UTF-8 bytes as %XX (write % itself as %25)',
        [`${base}/%zz`]: 'file URIs may use % only to escape UTF-8 bytes as %XX (write % itself as %25)',
        [`${base}/a%00b`]: 'file URIs must not name a directory with control characters (%00–%1F, %7F)',
      };
      for (const [uri, why] of Object.entries(refusals)) {
        const added = await a.request('POST', '/v1/printers', { name: 'Odd folder', uri, formats: ['pdf'] });
        expect(added.statusCode, uri).toBe(422);
        expect(added.json(), uri).toEqual({ message: expect.any(String), errors: { uri: [why] } });
        const changed = await a.request('PATCH', `/v1/printers/${zebraId}`, { uri });
        expect(changed.statusCode, uri).toBe(422);
        expect(changed.json().errors, uri).toEqual({ uri: [why] });
      }
      expect((await a.request('GET', `/v1/printers/${zebraId}?refresh=false`)).json().data.uri).toBe(zebra.uri);
    });

    it('a file URI an older version stored undecoded is reported, not a 500, and blocks nobody else', async () => {
      const stored = `${pathToFileURL(folder).href}/old%zz`;
      const now = d.clock.now();
      await d.ctx.db.insert(printers).values({
        id: 'prn_older_version', accountId: other.id, station: d.ctx.station, name: 'From an older version', uri: stored, formats: ['pdf'], defaultFor: [],
        dpi: 203, status: 'unknown', statusDetail: null, lastSeenAt: null, createdAt: now, updatedAt: now,
      }).run();
      const asked = await other.request('GET', '/v1/printers/prn_older_version');
      expect(asked.statusCode).toBe(200);
      expect(asked.json().data).toMatchObject({ status: 'offline', status_detail: { message: expect.stringContaining('the printer URI cannot be used: file URIs may use % only') } });
      const test = await other.request('POST', '/v1/printers/prn_older_version/test');
      expect(test.statusCode).toBe(422);
      expect(Object.keys(test.json().errors)).toEqual(['uri']);
      // other accounts' printer directories are weighed when a place is checked: this one must not break that
      const mine = await a.request('POST', '/v1/printers', { name: 'Beside it', uri: `${pathToFileURL(folder).href}/beside`, formats: ['pdf'] });
      expect(mine.statusCode, mine.body).toBe(201);
      expect((await a.request('DELETE', `/v1/printers/${mine.json().data.id}`)).statusCode).toBe(204);
      expect((await other.request('DELETE', '/v1/printers/prn_older_version')).statusCode).toBe(204);
    });

    it('answers 401 without a key, 403 on another account\'s printer and for read-only keys, 404 for an unknown id', async () => {
      expect((await d.app.inject({ method: 'GET', url: '/v1/printers' })).statusCode).toBe(401);
      expect((await other.request('GET', `/v1/printers/${zebraId}`)).statusCode).toBe(403);
      expect((await other.request('PATCH', `/v1/printers/${zebraId}`, { name: 'mine' })).statusCode).toBe(403);
      expect((await other.request('DELETE', `/v1/printers/${zebraId}`)).statusCode).toBe(403);
      expect((await other.request('POST', `/v1/printers/${zebraId}/test`)).statusCode).toBe(403);
      expect((await other.request('GET', '/v1/printers')).json().data).toEqual([]);
      const readOnly = await d.app.inject({ method: 'DELETE', url: `/v1/printers/${zebraId}`, headers: { authorization: `Bearer ${a.readOnlyKey}` } });
      expect(readOnly.statusCode).toBe(403);
      expect((await a.request('GET', '/v1/printers/prn_nope')).statusCode).toBe(404);
      expect((await a.request('GET', '/v1/print-jobs/pj_nope')).statusCode).toBe(404);
    });

    it('keeps one default printer per format: a new default takes the format from the old one', async () => {
      const spare = await addPrinter({ name: 'Spare Zebra', uri: 'tcp://127.0.0.1:9', formats: ['zpl'] });
      expect(spare).toMatchObject({ status: 'offline', default_for: [] });
      const made = await a.request('PATCH', `/v1/printers/${spare.id}`, { default_for: ['zpl'] });
      expect(made.json().data.default_for).toEqual(['zpl']);
      expect((await a.request('GET', `/v1/printers/${zebraId}?refresh=false`)).json().data.default_for).toEqual([]);
      expect((await a.request('GET', '/v1/printers?default_for=zpl')).json().data.map((p: { id: string }) => p.id)).toEqual([spare.id]);
      expect((await a.request('PATCH', `/v1/printers/${spare.id}`, { default_for: ['epl'] })).statusCode).toBe(422);
      expect((await a.request('PATCH', `/v1/printers/${zebraId}`, { default_for: ['zpl', 'epl'] })).json().data.default_for).toEqual(['zpl', 'epl']);
      expect((await a.request('GET', `/v1/printers/${spare.id}?refresh=false`)).json().data.default_for).toEqual([]);
      expect((await a.request('DELETE', `/v1/printers/${spare.id}`)).statusCode).toBe(204);
      expect((await a.request('GET', `/v1/printers/${spare.id}`)).statusCode).toBe(404);
    });
  });

  describe('raw ZPL and EPL over a socket', () => {
    it('sends exactly the merged ZPL bytes once per copy, then marks the job printed', async () => {
      const id = await createdShipment('zpl', { parcels: parcelsOf(2) });
      const label = await rawLabel(id);
      zebra.clear();
      const res = await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: zebraId, copies: 3 });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().data).toMatchObject({ shipment_id: id, printer_id: zebraId, format: 'zpl', copies: 3, status: 'queued', attempts: 0, kind: 'shipment_label' });
      await d.runJobs();
      expect(zebra.labelBytes().equals(Buffer.concat([label, label, label]))).toBe(true);
      expect(zebra.connections()).toBe(1);
      expect(zebra.statusQueries()).toBe(2); // before the data, and after it as the acknowledgment
      expect(await job(res.json().data.id)).toMatchObject({ status: 'printed', attempts: 1, error: null, printed_at: '2026-11-20T09:00:00Z' });
      await d.runJobs();
      expect(zebra.labelBytes().length).toBe(label.length * 3);
    });

    it('prints on creation the ZPL packdesk converted from a PDF-only carrier\'s labels, byte for byte', async () => {
      const mrw = findProvider('mrw')!;
      const channelRes = await a.request('POST', '/v1/shipping-channels', { name: 'MRW', provider: 'mrw', settings: { ...mrw.demo.settings, baseUrl: emu.urls.mrw } });
      expect(channelRes.json().data.status, channelRes.body).toBe('active');
      const { cash_on_delivery_currency: _currency, ...parties } = mrw.demo.shipment;
      zebra.clear();
      const res = await a.request('POST', '/v1/shipments', {
        ...parties, shipping_channel_id: channelRes.json().data.id, label_format: 'zpl', parcels: parcelsOf(2), print: { printer_id: zebraId },
      });
      expect(res.statusCode, res.body).toBe(201);
      await d.runJobs();
      const shipment = (await a.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data;
      const label = (await a.request('GET', `/v1/shipments/${shipment.id}/label`)).json().data.label;
      expect(label).toMatchObject({ format: 'zpl', source: 'converted', pages: 2 });
      const zpl = Buffer.from(label.content, 'base64');
      expect(zebra.labelBytes().equals(zpl)).toBe(true);
      expect(await decodeZplBarcodes(zebra.labelBytes().toString('latin1'))).toEqual(shipment.parcels.map((p: { tracking_number: string }) => [p.tracking_number]));
    });

    it('prints the EPL packdesk converted from the carrier\'s PDF, byte for byte, drawn at the printer\'s 300 dpi', async () => {
      expect((await a.request('PATCH', `/v1/printers/${zebraId}`, { dpi: 300 })).json().data.dpi).toBe(300);
      try {
        zebra.clear();
        const id = await createdShipment('epl', { parcels: parcelsOf(2), print: { printer_id: zebraId } });
        const shipment = (await a.request('GET', `/v1/shipments/${id}`)).json().data;
        expect(shipment.label_dpi).toBe(300);
        const label = (await a.request('GET', `/v1/shipments/${id}/label`)).json().data.label;
        expect(label).toMatchObject({ format: 'epl', source: 'converted', pages: 2 });
        const epl = Buffer.from(label.content, 'base64');
        expect(epl.toString('latin1')).toMatch(/^q1200$/m);
        await d.runJobs();
        expect(zebra.labelBytes().equals(epl)).toBe(true);
        expect(await decodeEplBarcodes(zebra.labelBytes())).toEqual(shipment.parcels.map((p: { tracking_number: string }) => [p.tracking_number]));
        // its picture shows the printer's dots: 4 in at 12 dots/mm (a 203-dpi picture would be 812 wide)
        const picture = await a.request('GET', `/v1/shipments/${id}/label?format=png&parcel=1`, undefined, { accept: 'image/png' });
        expect(picture.rawPayload.readUInt32BE(16)).toBe(1220);
        expect(await decodePngBarcodes(picture.rawPayload)).toEqual([shipment.parcels[0].tracking_number]);
      } finally {
        await a.request('PATCH', `/v1/printers/${zebraId}`, { dpi: 203 });
      }
    });

    it('keeps a job queued while the printer is out of paper, retries with backoff, and prints once after it clears', async () => {
      const id = await createdShipment('zpl');
      const label = await rawLabel(id);
      zebra.clear();
      zebra.flags.paperOut = true;
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, {})).json().data;
      expect(queued.printer_id).toBe(zebraId); // the default printer for zpl
      await d.runJobs();
      let seen = await job(queued.id);
      expect(seen).toMatchObject({ status: 'queued', attempts: 1, error: 'paper out' });
      expect(Date.parse(seen.next_attempt_at!) - d.clock.now()).toBeGreaterThanOrEqual(4000);
      expect(zebra.labelBytes().length).toBe(0);
      expect((await a.request('GET', `/v1/printers/${zebraId}?refresh=false`)).json().data).toMatchObject({ status: 'offline', status_detail: { paper_out: true } });

      await d.runJobs(); // not due yet: nothing asked
      expect(zebra.statusQueries()).toBe(1);
      d.clock.advance(6_000);
      await d.runJobs();
      seen = await job(queued.id);
      expect(seen).toMatchObject({ status: 'queued', attempts: 2 });
      expect(Date.parse(seen.next_attempt_at!) - d.clock.now()).toBeGreaterThanOrEqual(12_000);

      zebra.flags.paperOut = false;
      d.clock.advance(20_000);
      await d.runJobs();
      expect(await job(queued.id)).toMatchObject({ status: 'printed', attempts: 3, error: null });
      expect(zebra.labelBytes().equals(label)).toBe(true);
      expect((await a.request('GET', `/v1/printers/${zebraId}?refresh=false`)).json().data.status).toBe('ready');
    });

    it('keeps later jobs behind a waiting one, so a printer that is off is asked once per backoff step and prints in order', async () => {
      const first = await createdShipment('zpl');
      const second = await createdShipment('zpl');
      await zebra.stop();
      const j1 = (await a.request('POST', `/v1/shipments/${first}/print`, {})).json().data;
      d.clock.advance(1);
      const j2 = (await a.request('POST', `/v1/shipments/${second}/print`, {})).json().data;
      await d.runJobs();
      expect(await job(j1.id)).toMatchObject({ status: 'queued', attempts: 1 });
      expect((await job(j1.id)).error).toContain('ECONNREFUSED');
      expect(await job(j2.id)).toMatchObject({ status: 'queued', attempts: 0 });
      await zebra.start();
      zebra.clear();
      d.clock.advance(10_000);
      await d.runJobs();
      expect((await job(j1.id)).status).toBe('printed');
      expect((await job(j2.id)).status).toBe('printed');
      expect(zebra.labelBytes().equals(Buffer.concat([await rawLabel(first), await rawLabel(second)]))).toBe(true);
    });

    it('prints on create once the label exists, and checks the print request when the shipment is created', async () => {
      zebra.clear();
      const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, { label_format: 'zpl', reference_number: 'PRINT-ON-CREATE', print: { printer_id: zebraId, copies: 2 } }));
      expect(res.statusCode, res.body).toBe(201);
      await d.runJobs();
      const jobs = (await a.request('GET', `/v1/print-jobs?shipment_id=${res.json().data.id}`)).json().data as Job[];
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ status: 'printed', copies: 2 });
      const label = await rawLabel(res.json().data.id);
      expect(zebra.labelBytes().equals(Buffer.concat([label, label]))).toBe(true);

      const foreign = (await other.request('POST', '/v1/printers', { name: 'Theirs', uri: 'tcp://127.0.0.1:9', formats: ['zpl'] })).json().data.id;
      const refused = await a.request('POST', '/v1/shipments', shipmentBody(channel, { label_format: 'pdf', print: { printer_id: zebraId, copies: 21 } }));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors['print.copies']).toBeDefined();
      expect(refused.json().errors['print.printer_id']).toEqual(['printer Zebra ZD421 takes zpl, epl labels, not pdf']);
      const theirs = await a.request('POST', '/v1/shipments', shipmentBody(channel, { label_format: 'zpl', print: { printer_id: foreign } }));
      expect(theirs.json().errors).toEqual({ 'print.printer_id': ['is not a printer of this account'] });
    });

    it('POST /v1/shipments/{id}/print: 404, 403, no label yet, no default printer, a4 only for pdf', async () => {
      expect((await a.request('POST', '/v1/shipments/sh_nope/print', {})).statusCode).toBe(404);
      const pdf = await createdShipment('pdf');
      expect((await other.request('POST', `/v1/shipments/${pdf}/print`, {})).statusCode).toBe(403);
      const noDefault = await a.request('POST', `/v1/shipments/${pdf}/print`);
      expect(noDefault.statusCode).toBe(422);
      expect(noDefault.json().errors.printer_id[0]).toMatch(/^is required: station .+ has no printer for pdf labels/);
      const zpl = await createdShipment('zpl');
      expect((await a.request('POST', `/v1/shipments/${zpl}/print`, { layout: 'a4' })).json().errors).toEqual({ layout: ['the a4 layout is for pdf labels only'] });
      const pending = (await a.request('POST', '/v1/shipments', shipmentBody(channel, { label_format: 'zpl' }))).json().data.id;
      const early = await a.request('POST', `/v1/shipments/${pending}/print`, {});
      expect(early.statusCode).toBe(422);
      expect(early.json().errors.shipment_id[0]).toContain('no label yet');
      await d.runJobs();
    });

    it("prints a test label in each format: ZPL and EPL with a Code 128 of the job id and the station's name", async () => {
      zebra.clear();
      const res = await a.request('POST', `/v1/printers/${zebraId}/test`);
      expect(res.statusCode, res.body).toBe(202);
      const jobs = res.json().data as Job[];
      expect(jobs.map((j) => [j.format, j.kind, j.status])).toEqual([['zpl', 'test_label', 'queued'], ['epl', 'test_label', 'queued']]);
      await d.runJobs();
      for (const j of jobs) expect((await job(j.id)).status).toBe('printed');
      const printed = zebra.labelBytes().toString('utf8');
      const zpl = printed.slice(printed.indexOf('^XA'), printed.indexOf('^XZ') + 3);
      expect(zpl).toContain('Sklad Praha – Řepy');
      expect(await decodeZplBarcodes(zpl)).toEqual([[jobs[0]!.id]]);
      const epl = printed.slice(printed.indexOf('\nN\n'));
      expect(epl).toContain('A40,180,0,4,2,2,N,"Sklad Praha ? Repy"');
      expect(epl).toMatch(new RegExp(`^B40,520,0,1,\\d,\\d,220,B,"${jobs[1]!.id}"$`, 'm'));
      expect(epl.trimEnd().endsWith('P1')).toBe(true);
      const only = await a.request('POST', `/v1/printers/${zebraId}/test`, { formats: ['pdf'] });
      expect(only.json().errors).toEqual({ formats: ['printer Zebra ZD421 takes zpl, epl, not pdf'] });
    });
  });

  describe('file:///dir printers', () => {
    let fileId: string;
    beforeAll(async () => {
      fileId = (await addPrinter({ name: 'Folder', uri: pathToFileURL(folder).href, formats: ['pdf', 'zpl', 'epl'], default_for: ['pdf'] })).id;
    });

    it('writes each copy as a file, byte-identical, and never writes one twice', async () => {
      const id = await createdShipment('pdf', { parcels: parcelsOf(2) });
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { copies: 2 })).json().data;
      expect(queued.printer_id).toBe(fileId);
      await d.runJobs();
      expect((await job(queued.id)).status).toBe('printed');
      const label = await rawLabel(id);
      const files = readdirSync(folder).filter((f) => f.startsWith(queued.id)).sort();
      expect(files).toEqual([`${queued.id}-1.pdf`, `${queued.id}-2.pdf`]);
      for (const f of files) expect(readFileSync(join(folder, f)).equals(label)).toBe(true);
      const written = statSync(join(folder, files[0]!)).mtimeMs;
      // the daemon died before recording `printed`: the job is taken again and finds its files
      await d.ctx.db.update(printJobs).set({ status: 'printing', leaseUntil: d.clock.now() }).where(eq(printJobs.id, queued.id)).run();
      await d.runJobs();
      expect((await job(queued.id)).status).toBe('printed');
      expect(statSync(join(folder, files[0]!)).mtimeMs).toBe(written);
      expect(readdirSync(folder).filter((f) => f.startsWith(queued.id))).toHaveLength(2);
    });

    it('a PDF test label is one 10×15 cm page whose barcode scans to the job id', async () => {
      const [pdfJob] = (await a.request('POST', `/v1/printers/${fileId}/test`, { formats: ['pdf'] })).json().data as Job[];
      await d.runJobs();
      const pdf = readFileSync(join(folder, `${pdfJob!.id}-1.pdf`));
      const page = (await PDFDocument.load(pdf)).getPage(0);
      expect([Math.round(page.getWidth() / 72 * 25.4), Math.round(page.getHeight() / 72 * 25.4)]).toEqual([100, 150]);
      expect(await decodePdfBarcodes(pdf, 300)).toEqual([[pdfJob!.id]]);
    });
  });

  describe('print jobs', () => {
    it('lists with filters, fails a job after 24 h of an unreachable printer, and retries it for another 24 h', async () => {
      const id = await createdShipment('zpl');
      await zebra.stop();
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: zebraId })).json().data as Job;
      await d.runJobs();
      d.clock.advance(25 * 3600_000);
      await d.runJobs();
      const failed = await job(queued.id);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/^gave up after 24 h: cannot connect to 127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/);
      const list = (await a.request('GET', `/v1/print-jobs?status=failed&printer_id=${zebraId}`)).json();
      expect(list.data.map((j: Job) => j.id)).toContain(queued.id);
      expect(list.meta).toMatchObject({ current_page: 1, per_page: 20 });
      expect((await a.request('GET', `/v1/print-jobs?shipment_id=${id}`)).json().data.map((j: Job) => j.id)).toEqual([queued.id]);
      expect((await a.request('GET', '/v1/print-jobs?status=lost')).statusCode).toBe(422);
      expect((await other.request('GET', '/v1/print-jobs')).json().data).toEqual([]);
      expect((await other.request('POST', `/v1/print-jobs/${queued.id}/retry`)).statusCode).toBe(403);

      await zebra.start();
      zebra.clear();
      const retried = await a.request('POST', `/v1/print-jobs/${queued.id}/retry`);
      expect(retried.statusCode).toBe(200);
      expect(retried.json().data).toMatchObject({ status: 'queued', attempts: 0, error: null });
      expect(Date.parse(retried.json().data.expires_at)).toBe(Math.floor((d.clock.now() + 24 * 3600_000) / 1000) * 1000);
      await d.runJobs();
      expect((await job(queued.id)).status).toBe('printed');
      expect(zebra.labelBytes().equals(await rawLabel(id))).toBe(true);
      const again = await a.request('POST', `/v1/print-jobs/${queued.id}/retry`);
      expect(again.statusCode).toBe(422);
      expect(again.json().errors).toEqual({ status: ['only a failed print job can be retried (this one is printed)'] });
    });
  });

  describe('raw printers that never answer ~HS (status_query) and the printed state of shipments', () => {
    let silent: ZebraPrinter;
    /** The print queue with a 300 ms limit per exchange, so a ~HS that never comes is given up on in a moment. */
    let impatientQueue: PrintQueueWorker;
    const printedAt = async (id: string) => (await d.ctx.db.select({ at: shipments.printedAt }).from(shipments).where(eq(shipments.id, id)).get())?.at;
    beforeAll(async () => {
      silent = await startZebra({}, false);
      impatientQueue = new PrintQueueWorker(d.ctx, { timeoutMs: 300 });
    });
    afterAll(async () => {
      await silent?.stop();
    });

    it('a printer set to status_query none is only connected to, prints a shipment\'s label once at once, and the shipment is printed', async () => {
      const added = await addPrinter({ name: 'Generic ZPL', uri: silent.uri, formats: ['zpl'], status_query: 'none' });
      expect(added).toMatchObject({ status_query: 'none', status: 'ready', status_detail: { reachable: true, problems: [], protocol: 'connect_only' } });
      const id = await createdShipment('zpl');
      expect(await printedAt(id)).toBeNull();
      silent.clear();
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: added.id })).json().data;
      await d.runJobs();
      expect(await job(queued.id)).toMatchObject({ status: 'printed', attempts: 1, error: null });
      expect(silent.labelBytes().equals(await rawLabel(id))).toBe(true);
      expect(silent.statusQueries()).toBe(0);
      expect(await printedAt(id)).toBe(d.clock.now());
      expect((await a.request('DELETE', `/v1/printers/${added.id}`)).statusCode).toBe(204);
    });

    it('with auto, a printer that never answers ~HS says so with the hint at once, keeps its job unsent, and prints it once set to none', async () => {
      const added = await addPrinter({ name: 'Silent ZPL', uri: silent.uri, formats: ['zpl'] });
      const hint = `if it is not a Zebra, set status_query none (packdesk printers update ${added.id} --status-query none)`;
      expect(added).toMatchObject({ status_query: 'auto', status: 'offline', status_detail: { reachable: true, problems: ['no_status_answer'] } });
      expect(added.status_detail.message).toBe(`the printer at ${silent.uri} accepted the connection but did not answer ~HS within 3 s; ${hint}`);

      const id = await createdShipment('zpl');
      silent.clear();
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: added.id })).json().data;
      await impatientQueue.runDue();
      const waiting = await job(queued.id);
      expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
      expect(waiting.error).toBe(`the printer at ${silent.uri} accepted the connection but did not answer ~HS within 0.3 s; ${hint}`);
      expect(silent.labelBytes().length).toBe(0);
      expect((await a.request('GET', `/v1/printers/${added.id}?refresh=false`)).json().data.status_detail.message).toContain(hint);

      // the fix the hint names: the waiting job is tried at once, not after its backoff
      const fixed = await a.request('PATCH', `/v1/printers/${added.id}`, { status_query: 'none' });
      expect(fixed.json().data).toMatchObject({ status_query: 'none', status: 'ready' });
      await d.runJobs();
      expect(await job(queued.id)).toMatchObject({ status: 'printed', attempts: 2, error: null });
      expect(silent.labelBytes().equals(await rawLabel(id))).toBe(true);
      expect((await a.request('DELETE', `/v1/printers/${added.id}`)).statusCode).toBe(204);
    });

    it('a connect-only printer that resets the connection after the data keeps the job, and it is sent again, not lost', async () => {
      const dropping: Server = createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
      await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
      try {
        const uri = `tcp://127.0.0.1:${(dropping.address() as { port: number }).port}`;
        const added = await addPrinter({ name: 'Dropping print server', uri, formats: ['zpl'], status_query: 'none' });
        const id = await createdShipment('zpl');
        const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: added.id })).json().data;
        await d.runJobs();
        const kept = await job(queued.id);
        expect(kept.status).not.toBe('printed');
        expect(kept.error).toMatch(/^the connection to 127\.0\.0\.1:\d+ broke after sending \(ECONNRESET\)$/);
        expect(await printedAt(id)).toBeNull();
        silent.clear();
        await a.request('PATCH', `/v1/printers/${added.id}`, { uri: silent.uri });
        d.clock.advance(10_000);
        await d.runJobs();
        expect((await job(queued.id)).status).toBe('printed');
        expect(silent.labelBytes().equals(await rawLabel(id))).toBe(true);
        expect((await a.request('DELETE', `/v1/printers/${added.id}`)).statusCode).toBe(204);
      } finally {
        await new Promise((resolve) => dropping.close(resolve));
      }
    });

    it('refuses a status_query that is not auto or none, and none for printers other than raw sockets, with 422 on status_query', async () => {
      const bogus = await a.request('POST', '/v1/printers', { name: 'Bogus', uri: silent.uri, formats: ['zpl'], status_query: 'bogus' });
      expect(bogus.statusCode).toBe(422);
      expect(Object.keys(bogus.json().errors)).toEqual(['status_query']);
      const folderNone = await a.request('POST', '/v1/printers', { name: 'Folder none', uri: pathToFileURL(folder).href, formats: ['pdf'], status_query: 'none' });
      expect(folderNone.statusCode).toBe(422);
      expect(folderNone.json().errors).toEqual({ status_query: ['none is for raw socket printers (tcp://…) that do not answer ~HS; file printers take auto'] });
      const ippNone = await a.request('POST', '/v1/printers', { name: 'IPP none', uri: 'ipp://127.0.0.1:9/ipp/print', formats: ['pdf'], status_query: 'none' });
      expect(ippNone.json().errors).toEqual({ status_query: ['none is for raw socket printers (tcp://…) that do not answer ~HS; ipp printers take auto'] });
      expect((await a.request('PATCH', `/v1/printers/${zebraId}`, { status_query: 'bogus' })).json().errors).toHaveProperty('status_query');

      // a raw printer set to none and moved to a folder is asked as folders are, unless the request says otherwise
      const raw = await addPrinter({ name: 'Moves to a folder', uri: silent.uri, formats: ['zpl'], status_query: 'none' });
      const moved = await a.request('PATCH', `/v1/printers/${raw.id}`, { uri: pathToFileURL(folder).href });
      expect(moved.json().data).toMatchObject({ status_query: 'auto', status: 'ready' });
      expect((await a.request('PATCH', `/v1/printers/${raw.id}`, { status_query: 'none' })).json().errors).toHaveProperty('status_query');
      expect((await a.request('DELETE', `/v1/printers/${raw.id}`)).statusCode).toBe(204);
    });

    it('a merged job records the first print of every shipment it holds, in the same step as the job, and a later print keeps it', async () => {
      const added = await addPrinter({ name: 'Merged ZPL', uri: silent.uri, formats: ['zpl'], status_query: 'none' });
      const [first, second, untouched] = [await createdShipment('zpl'), await createdShipment('zpl'), await createdShipment('zpl')];
      const content = Buffer.concat([await rawLabel(first), await rawLabel(second)]);
      const merged = await d.ctx.store.transaction(() => queuePrintJob(d.ctx, { accountId: a.id, printerId: added.id, format: 'zpl', copies: 1, content, shipmentIds: [first, second] }));
      silent.clear();
      await d.runJobs();
      expect((await job(merged.id)).status).toBe('printed');
      expect(silent.labelBytes().equals(content)).toBe(true);
      const at = d.clock.now();
      expect([await printedAt(first), await printedAt(second), await printedAt(untouched)]).toEqual([at, at, null]);

      d.clock.advance(60_000);
      const again = (await a.request('POST', `/v1/shipments/${first}/print`, { printer_id: added.id })).json().data;
      await d.runJobs();
      expect((await job(again.id)).status).toBe('printed');
      expect(await printedAt(first)).toBe(at);
      expect((await a.request('DELETE', `/v1/printers/${added.id}`)).statusCode).toBe(204);
    });
  });

  // the IPP printer needs the machine's one D-Bus bus and avahi-daemon, which the SQLite run's global setup keeps
  // running (test/dns-sd-global-setup.ts): the printing is tested there, the PostgreSQL run adds nothing to it
  const noIpp = TEST_DIALECT === 'postgres' ? 'printed to in the SQLite run' : ippSkipReason();
  describe.skipIf(Boolean(noIpp))(noIpp ? `IPP printing (skipped: ${noIpp})` : 'IPP printing to ippeveprinter', () => {
    let ipp: IppPrinter;
    let ippId: string;
    beforeAll(async () => {
      ipp = await startIppPrinter();
      ippId = (await addPrinter({ name: 'Label IPP', uri: ipp.uri, formats: ['pdf'] })).id;
    });
    afterAll(async () => {
      await ipp?.close();
    });

    it('shows printer-state and printer-state-reasons as the status', async () => {
      expect((await a.request('GET', `/v1/printers/${ippId}`)).json().data).toMatchObject({
        status: 'ready', status_detail: { reachable: true, protocol: 'ipp', printer_state: 'idle', printer_state_reasons: [], printer_is_accepting_jobs: true },
      });
    });

    it('sends the PDF label byte-identical with 10×15 cm media-col, and the job reaches printed', async () => {
      const id = await createdShipment('pdf', { parcels: parcelsOf(2) });
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: ippId })).json().data;
      await d.runJobs();
      expect(await job(queued.id)).toMatchObject({ status: 'printed', attempts: 1, error: null });
      const spooled = ipp.jobs().filter((j) => j.attributes.IPP_JOB_NAME === queued.id);
      expect(spooled).toHaveLength(1);
      expect(spooled[0]!.content.equals(await rawLabel(id))).toBe(true);
      expect(spooled[0]!.attributes).toMatchObject({
        CONTENT_TYPE: 'application/pdf', IPP_MEDIA_COL: '{media-size={x-dimension=10000 y-dimension=15000}}', IPP_COPIES: '1',
      });
    });

    it('prints the A4 layout on A4 media only when asked', async () => {
      const id = await createdShipment('pdf');
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: ippId, layout: 'a4' })).json().data;
      await d.runJobs();
      expect((await job(queued.id)).status).toBe('printed');
      const [spooled] = ipp.jobs().filter((j) => j.attributes.IPP_JOB_NAME === queued.id);
      expect(spooled!.attributes.IPP_MEDIA_COL).toBe('{media-size={x-dimension=21000 y-dimension=29700}}');
      const page = (await PDFDocument.load(spooled!.content)).getPage(0);
      expect([Math.round(page.getWidth()), Math.round(page.getHeight())]).toEqual([595, 842]);
    });

    it('sends ZPL untouched as application/vnd.cups-raw, as to a CUPS raw queue', async () => {
      const raw = await addPrinter({ name: 'CUPS raw queue', uri: ipp.uri, formats: ['zpl'] });
      const id = await createdShipment('zpl', { parcels: parcelsOf(2) });
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: raw.id, copies: 2 })).json().data;
      await d.runJobs();
      expect((await job(queued.id)).status).toBe('printed');
      const [spooled] = ipp.jobs().filter((j) => j.attributes.IPP_JOB_NAME === queued.id);
      expect(spooled!.content.equals(await rawLabel(id))).toBe(true);
      expect(spooled!.attributes).toMatchObject({ CONTENT_TYPE: 'application/vnd.cups-raw', IPP_COPIES: '2' });
      expect(spooled!.attributes).not.toHaveProperty('IPP_MEDIA_COL');
    });

    it('keeps the job queued while the printer is stopped, and prints it once after it comes back', async () => {
      const id = await createdShipment('pdf');
      await ipp.stop();
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: ippId })).json().data;
      await d.runJobs();
      expect(await job(queued.id)).toMatchObject({ status: 'queued', attempts: 1 });
      expect((await a.request('GET', `/v1/printers/${ippId}`)).json().data).toMatchObject({ status: 'offline', status_detail: { reachable: false } });
      d.clock.advance(10_000);
      await d.runJobs();
      expect(await job(queued.id)).toMatchObject({ status: 'queued', attempts: 2 });
      await ipp.start();
      d.clock.advance(30_000);
      await d.runJobs();
      expect(await job(queued.id)).toMatchObject({ status: 'printed', attempts: 3 });
      const spooled = ipp.jobs().filter((j) => j.attributes.IPP_JOB_NAME === queued.id);
      expect(spooled).toHaveLength(1);
      expect(spooled[0]!.content.equals(await rawLabel(id))).toBe(true);
    });

    it('after a restart, finds a job the printer already took (by its name) and does not send it again', async () => {
      const id = await createdShipment('pdf');
      const queued = (await a.request('POST', `/v1/shipments/${id}/print`, { printer_id: ippId })).json().data;
      await d.runJobs();
      // as if the daemon died between the printer's answer and recording `printed`
      await d.ctx.db.update(printJobs).set({ status: 'printing', leaseUntil: d.clock.now(), printedAt: null }).where(eq(printJobs.id, queued.id)).run();
      await d.runJobs();
      expect((await job(queued.id)).status).toBe('printed');
      expect(ipp.jobs().filter((j) => j.attributes.IPP_JOB_NAME === queued.id)).toHaveLength(1);
    });
  });
});
