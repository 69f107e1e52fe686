import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { FieldErrorCollector, ValidationError } from '../../src/domain/errors.js';
import { updatePrinter } from '../../src/services/printing/printers.js';
import { printers, watchedFolders } from '../../src/store/schema.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel } from '../helpers/shipments.js';

/** The 422 errors of a request that must be refused. */
async function refusal(account: TestAccount, method: 'POST' | 'PATCH', url: string, body: Record<string, unknown>): Promise<Record<string, string[]>> {
  const res = await account.request(method, url, body);
  expect(res.statusCode, res.body).toBe(422);
  return res.json().errors;
}

const fileUri = (path: string) => pathToFileURL(path).href;
const healthy = async (d: TestDaemon) => (await d.app.inject({ method: 'GET', url: '/healthz' })).statusCode;

describe('the files policy: watched folders and file: printers only where a station admin allows', () => {
  let emu: RunningEmulators;
  const work = mkdtempSync(join(tmpdir(), 'packdesk-places-'));

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(work, { recursive: true, force: true });
  });

  describe('under the temporary directory as the only files root', () => {
    let d: TestDaemon;
    let a: TestAccount;
    let channel: string;
    const folder = (path: string, extra: Record<string, unknown> = {}) => ({ path, shipping_channel_id: channel, label_format: 'pdf', ...extra });
    const printer = (name: string, path: string) => ({ name, uri: fileUri(path), formats: ['pdf'] });

    beforeAll(async () => {
      d = await startTestDaemon();
      a = await d.account('Sklad Ostrava');
      channel = await pplChannel(a, emu.urls.ppl!);
    });
    afterAll(async () => {
      await d?.close();
    });

    it('refuses /proc/self as a watched folder at once, and the daemon keeps answering', async () => {
      const errors = await refusal(a, 'POST', '/v1/watched-folders', folder('/proc/self'));
      expect(Object.keys(errors)).toEqual(['path']);
      expect(errors.path).toContain('lies in /proc, a system directory the daemon never writes to');
      expect(errors.path).toContain('is on a proc file system, which the daemon never writes to');
      expect(await healthy(d)).toBe(200);
    });

    it('refuses a file:///proc/self/newdir printer at once, and the daemon keeps answering', async () => {
      const errors = await refusal(a, 'POST', '/v1/printers', { name: 'Proc', uri: 'file:///proc/self/newdir', formats: ['pdf'] });
      expect(Object.keys(errors)).toEqual(['uri']);
      expect(errors.uri).toContain('lies in /proc, a system directory the daemon never writes to');
      expect(await healthy(d)).toBe(200);
      expect((await a.request('GET', '/v1/printers')).json().data).toEqual([]);
    });

    it('refuses a path outside every files root, naming the roots and how to allow another', async () => {
      const outside = '/opt/packdesk-orders';
      const errors = await refusal(a, 'POST', '/v1/watched-folders', folder(outside));
      expect(errors.path).toEqual([`must lie within a directory the daemon may use: ${tmpdir()}; a station admin allows another with \`packdesk daemon --files-root DIR\``]);
      expect((await refusal(a, 'POST', '/v1/printers', printer('Opt', outside))).uri).toEqual(errors.path);
      expect(existsSync(outside)).toBe(false);
    });

    it('follows a symbolic link before deciding: a link inside the root that leads to /etc is refused, and nothing is created there', async () => {
      const link = join(work, 'etc-link');
      symlinkSync('/etc', link);
      const errors = await refusal(a, 'POST', '/v1/watched-folders', folder(join(link, 'packdesk-orders')));
      expect(errors.path).toContain(`must lie within a directory the daemon may use (it leads to /etc/packdesk-orders): ${tmpdir()}; a station admin allows another with \`packdesk daemon --files-root DIR\``);
      expect(errors.path).toContain('lies in /etc, a system directory the daemon never writes to');
      expect(existsSync('/etc/packdesk-orders')).toBe(false);
      expect((await refusal(a, 'POST', '/v1/printers', printer('Linked', join(link, 'packdesk-labels')))).uri).toContain('lies in /etc, a system directory the daemon never writes to');
      expect(existsSync('/etc/packdesk-labels')).toBe(false);
    });

    it('refuses the data directory, a path inside it and one containing it', async () => {
      expect((await refusal(a, 'POST', '/v1/watched-folders', folder(d.dataDir))).path).toEqual(["is the daemon's data directory"]);
      expect((await refusal(a, 'POST', '/v1/watched-folders', folder(join(d.dataDir, 'imports')))).path).toEqual(["lies inside the daemon's data directory"]);
      expect((await refusal(a, 'POST', '/v1/printers', printer('Data', join(d.dataDir, 'labels')))).uri).toEqual(["lies inside the daemon's data directory"]);
      expect((await refusal(a, 'POST', '/v1/watched-folders', folder(tmpdir()))).path).toEqual(["contains the daemon's data directory"]);
      expect(readdirSync(d.dataDir)).not.toContain('in');
    });

    it('refuses a regular file, and a path under one', async () => {
      const file = join(work, 'orders.csv');
      writeFileSync(file, 'reference_number\n');
      expect((await refusal(a, 'POST', '/v1/watched-folders', folder(file))).path).toEqual(['is a file, not a directory']);
      expect((await refusal(a, 'POST', '/v1/printers', printer('Under a file', join(file, 'labels')))).uri)
        .toEqual([`lies under ${file}, which is a file, not a directory`]);
    });

    // root may write anywhere (access(W_OK) says yes to it), so the case has a meaning only for another user
    it.skipIf(process.getuid?.() === 0)('refuses a directory the daemon cannot write to (skipped when the tests run as root)', async () => {
      const locked = join(work, 'locked');
      mkdirSync(locked, { mode: 0o500 });
      chmodSync(locked, 0o500);
      expect((await refusal(a, 'POST', '/v1/watched-folders', folder(locked))).path).toEqual(['is not writable by the daemon']);
      expect((await refusal(a, 'POST', '/v1/printers', printer('Locked', join(locked, 'labels')))).uri)
        .toEqual([`cannot be created: ${locked} is not writable by the daemon`]);
    });

    it('keeps one account out of another\'s folders and printer directories without naming them', async () => {
      const b = await d.account('Other shop');
      const bChannel = await pplChannel(b, emu.urls.ppl!);
      const shop = join(work, 'shop-a');
      const created = await a.request('POST', '/v1/watched-folders', folder(join(shop, 'orders')));
      expect(created.statusCode, created.body).toBe(201);
      const labels = join(shop, 'labels');
      const aPrinter = await a.request('POST', '/v1/printers', printer('Shop A labels', labels));
      expect(aPrinter.statusCode, aPrinter.body).toBe(201);

      for (const path of [join(shop, 'orders'), join(shop, 'orders', 'in'), shop, labels, join(labels, 'zpl')]) {
        const res = await b.request('POST', '/v1/watched-folders', { path, shipping_channel_id: bChannel, label_format: 'pdf' });
        expect(res.statusCode, path).toBe(422);
        expect(res.json().errors).toEqual({ path: ['is used by another account'] });
        expect(res.body).not.toContain(created.json().data.id);
        expect(res.body).not.toContain(aPrinter.json().data.id);
        expect((await b.request('POST', '/v1/printers', printer('Mine', path))).json().errors).toEqual({ uri: ['is used by another account'] });
      }

      // the same account may add another printer in its own directory, and add one again after removing it
      const second = await a.request('POST', '/v1/printers', printer('Shop A spare', labels));
      expect(second.statusCode, second.body).toBe(201);
      expect((await a.request('DELETE', `/v1/printers/${aPrinter.json().data.id}`)).statusCode).toBe(204);
      const again = await a.request('POST', '/v1/printers', printer('Shop A labels', labels));
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json().data.status).toBe('ready');
      // within one account, folders still do not nest, and say which folder is in the way
      expect((await refusal(a, 'POST', '/v1/watched-folders', folder(join(shop, 'orders', 'in')))).path)
        .toEqual([`lies inside watched folder ${created.json().data.id} (${join(shop, 'orders')})`]);
    });

    it("refuses a watched folder whose in/ is a symbolic link, here to another account's in/, without saying where it leads", async () => {
      const b = await d.account('Neighbour shop');
      const theirs = await b.request('POST', '/v1/watched-folders', { path: join(work, 'neighbour-orders'), shipping_channel_id: await pplChannel(b, emu.urls.ppl!), label_format: 'pdf' });
      expect(theirs.statusCode, theirs.body).toBe(201);
      const linked = join(work, 'linked-in');
      mkdirSync(linked);
      symlinkSync(join(work, 'neighbour-orders', 'in'), join(linked, 'in'));
      const refused = { path: [`${join(linked, 'in')} is a symbolic link, which the daemon never follows`] };
      const res = await a.request('POST', '/v1/watched-folders', folder(linked));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual(refused);
      expect(res.body).not.toContain('neighbour-orders');
      expect(res.body).not.toContain(theirs.json().data.id);
      const own = await a.request('POST', '/v1/watched-folders', folder(join(work, 'before-the-move')));
      expect(own.statusCode, own.body).toBe(201);
      expect(await refusal(a, 'PATCH', `/v1/watched-folders/${own.json().data.id}`, { path: linked })).toEqual(refused);
    });

    it('moves a watched folder only to a place the policy allows', async () => {
      const created = await a.request('POST', '/v1/watched-folders', folder(join(work, 'moving')));
      expect(created.statusCode, created.body).toBe(201);
      expect((await refusal(a, 'PATCH', `/v1/watched-folders/${created.json().data.id}`, { path: '/etc' })).path)
        .toContain('lies in /etc, a system directory the daemon never writes to');
      expect(existsSync('/etc/in')).toBe(false);
      const moved = await a.request('PATCH', `/v1/watched-folders/${created.json().data.id}`, { path: join(work, 'moved') });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(readdirSync(join(work, 'moved')).sort()).toEqual(['done', 'failed', 'in', 'out', 'processing']);
    });

    it("moves another station's printer and folder only to this daemon's station, checking their places on this machine", async () => {
      const madeFolder = await a.request('POST', '/v1/watched-folders', folder(join(work, 'other-station-orders')));
      const madePrinter = await a.request('POST', '/v1/printers', printer('Other station labels', join(work, 'other-station-labels')));
      expect([madeFolder.statusCode, madePrinter.statusCode]).toEqual([201, 201]);
      const folderId = madeFolder.json().data.id as string;
      const printerId = madePrinter.json().data.id as string;
      // as another station's daemon saved them: places on that machine, which this one's files policy does not allow
      await d.ctx.db.update(watchedFolders).set({ station: 'packing-9', path: '/etc/erp-drop' }).where(eq(watchedFolders.id, folderId)).run();
      await d.ctx.db.update(printers).set({ station: 'packing-9', uri: 'file:///etc/labels' }).where(eq(printers.id, printerId)).run();

      for (const path of [`/v1/watched-folders/${folderId}`, `/v1/printers/${printerId}`]) {
        expect((await refusal(a, 'PATCH', path, { station: 'packing-7' })).station)
          .toEqual([`moves only to the station of the daemon that takes the request (this one serves ${d.ctx.station}): send it to packing-7's daemon`]);
      }
      expect((await refusal(a, 'PATCH', `/v1/watched-folders/${folderId}`, { station: d.ctx.station })).path)
        .toContain('lies in /etc, a system directory the daemon never writes to');
      expect(Object.keys(await refusal(a, 'PATCH', `/v1/printers/${printerId}`, { station: d.ctx.station }))).toEqual(['uri']);
      expect((await a.request('GET', `/v1/printers/${printerId}`)).json().data.station).toBe('packing-9');

      const movedFolder = await a.request('PATCH', `/v1/watched-folders/${folderId}`, { station: d.ctx.station, path: join(work, 'taken-over') });
      expect(movedFolder.statusCode, movedFolder.body).toBe(200);
      expect(movedFolder.json().data.station).toBe(d.ctx.station);
      expect(readdirSync(join(work, 'taken-over')).sort()).toEqual(['done', 'failed', 'in', 'out', 'processing']);
      const movedPrinter = await a.request('PATCH', `/v1/printers/${printerId}`, { station: d.ctx.station, uri: fileUri(join(work, 'taken-over-labels')) });
      expect(movedPrinter.statusCode, movedPrinter.body).toBe(200);
      expect(movedPrinter.json().data).toMatchObject({ station: d.ctx.station, status: 'ready' });
    });

    it('answers 422 on formats for PATCH {"formats": 123} on a default printer, also when the schema error is merged with the checks', async () => {
      const created = await a.request('POST', '/v1/printers', { name: 'Default PDF', uri: fileUri(join(work, 'default-pdf')), formats: ['pdf'], default_for: ['pdf'] });
      expect(created.statusCode, created.body).toBe(201);
      const res = await a.request('PATCH', `/v1/printers/${created.json().data.id}`, { formats: 123 });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ formats: ['must be an array'] });
      // a route merging schema errors hands the update a value of the wrong type together with the schema's message
      const merged = new FieldErrorCollector();
      merged.add('formats', 'must be an array');
      const update = updatePrinter(d.ctx, a.id, created.json().data.id, { formats: 123 as never, name: '' }, merged);
      await expect(update).rejects.toBeInstanceOf(ValidationError);
      await expect(update).rejects.toMatchObject({ errors: { formats: ['must be an array'], name: ['must not be empty'] } });
    });
  });

  describe('with / as a files root: system places are still refused', () => {
    let d: TestDaemon;
    let a: TestAccount;
    let channel: string;

    beforeAll(async () => {
      d = await startTestDaemon({ filesRoots: ['/'] });
      a = await d.account('Root station');
      channel = await pplChannel(a, emu.urls.ppl!);
    });
    afterAll(async () => {
      await d?.close();
    });

    it('refuses /etc as a watched folder and creates nothing in it', async () => {
      const errors = await refusal(a, 'POST', '/v1/watched-folders', { path: '/etc', shipping_channel_id: channel, label_format: 'pdf' });
      expect(errors).toEqual({ path: ['lies in /etc, a system directory the daemon never writes to'] });
      expect(existsSync('/etc/in')).toBe(false);
    });

    it('refuses file:///etc/, file:///dev/ and /proc/self printers and folders', async () => {
      expect(await refusal(a, 'POST', '/v1/printers', { name: 'Etc', uri: 'file:///etc/', formats: ['pdf'] }))
        .toEqual({ uri: ['lies in /etc, a system directory the daemon never writes to'] });
      expect(await refusal(a, 'POST', '/v1/printers', { name: 'Dev', uri: 'file:///dev/', formats: ['pdf'] }))
        .toEqual({ uri: ['lies in /dev, a system directory the daemon never writes to'] });
      expect(await refusal(a, 'POST', '/v1/watched-folders', { path: '/proc/self', shipping_channel_id: channel, label_format: 'pdf' })).toEqual({
        path: ['lies in /proc, a system directory the daemon never writes to', 'is on a proc file system, which the daemon never writes to'],
      });
      expect(await healthy(d)).toBe(200);
    });
  });

  describe('directories used later are checked again', () => {
    let d: TestDaemon;
    let a: TestAccount;
    const root = join(work, 'root');
    const elsewhere = join(work, 'elsewhere');

    beforeAll(async () => {
      mkdirSync(root);
      mkdirSync(elsewhere);
      d = await startTestDaemon({ filesRoots: [root] });
      a = await d.account('Station with a narrow root');
    });
    afterAll(async () => {
      await d?.workers.stop();
      await d?.close();
    });

    const testPrint = async (printerId: string) => {
      const res = await a.request('POST', `/v1/printers/${printerId}/test`, { formats: ['pdf'] });
      expect(res.statusCode, res.body).toBe(202);
      await d.runJobs();
      return (await a.request('GET', `/v1/print-jobs/${res.json().data[0].id}`)).json().data as { status: string; error: string | null };
    };

    it('fails the job of a file: printer saved where the policy now refuses, and writes nothing there', async () => {
      const dir = join(elsewhere, 'labels');
      const now = d.clock.now();
      await d.ctx.db.insert(printers).values({
        id: 'prn_savedbyanolderversion', accountId: a.id, name: 'Old folder', uri: fileUri(dir), formats: ['pdf'], defaultFor: [],
        status: 'unknown', statusDetail: null, lastSeenAt: null, createdAt: now, updatedAt: now,
      }).run();
      const shown = (await a.request('GET', '/v1/printers/prn_savedbyanolderversion')).json().data;
      expect(shown.status).toBe('offline');
      expect(shown.status_detail.message).toBe(`the printer directory ${dir} must lie within a directory the daemon may use: ${root}; a station admin allows another with \`packdesk daemon --files-root DIR\``);
      const job = await testPrint('prn_savedbyanolderversion');
      expect(job).toEqual(expect.objectContaining({ status: 'failed', error: shown.status_detail.message }));
      expect(existsSync(dir)).toBe(false);
    });

    it('fails the job of a printer whose directory became a symbolic link out of the root', async () => {
      const dir = join(root, 'labels');
      const created = await a.request('POST', '/v1/printers', { name: 'Labels', uri: fileUri(dir), formats: ['pdf'] });
      expect(created.statusCode, created.body).toBe(201);
      rmSync(dir, { recursive: true });
      symlinkSync(elsewhere, dir);
      const job = await testPrint(created.json().data.id);
      expect(job.status).toBe('failed');
      expect(job.error).toContain(`(it leads to ${elsewhere}): ${root}`);
      expect(readdirSync(elsewhere)).toEqual([]);
    });

    it('the folder watcher skips a folder the policy refuses, says why in the log, and creates nothing there', async () => {
      const channel = await pplChannel(a, emu.urls.ppl!);
      const path = join(elsewhere, 'drop');
      const now = d.clock.now();
      await d.ctx.db.insert(watchedFolders).values({
        id: 'wf_savedbyanolderversion', accountId: a.id, path, channelId: channel, labelFormat: 'pdf', printerId: null, mapping: null,
        status: 'active', createdAt: now, updatedAt: now,
      }).run();
      d.workers.imports.start();
      await d.workers.imports.runDue();
      expect(existsSync(path)).toBe(false);
      const line = d.logText().split('\n').find((l) => l.includes('wf_savedbyanolderversion') && l.includes('not usable'));
      expect(line, d.logText()).toBeDefined();
      expect(JSON.parse(line!).problems).toEqual([`must lie within a directory the daemon may use: ${root}; a station admin allows another with \`packdesk daemon --files-root DIR\``]);
    });
  });
});
