import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { runCliJsonInProcess } from '../helpers/cli.js';
import { spawnDaemon, type DaemonProcess, processApi } from '../helpers/processes.js';
import { shipmentBody } from '../helpers/shipments.js';
import { startZebra, type ZebraPrinter } from '../helpers/zebra.js';

const SHIPMENTS = 12;

/** kill -9 while a printer works through its queue, then a restart: every label prints, none twice. */
describe('a daemon killed mid print queue', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-print-crash-'));
  const env = { XDG_CONFIG_HOME: join(dataDir, 'cfg') };
  let emu: RunningEmulators;
  let zebra: ZebraPrinter;
  let daemon: DaemonProcess;
  let key: string;

  const api = processApi(() => daemon.url, () => key);
  const until = async (what: string, done: () => Promise<boolean>, ms = 45_000) => {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  };
  const labelsReceived = () => (zebra.labelBytes().toString('latin1').match(/\^XA/g) ?? []).length;
  const jobStatuses = () => {
    const db = new Database(join(dataDir, 'packdesk.sqlite'), { readonly: true });
    try {
      return Object.fromEntries((db.prepare('SELECT status, count(*) AS n FROM print_jobs GROUP BY status').all() as { status: string; n: number }[]).map((r) => [r.status, r.n]));
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    zebra = await startZebra({ paperOut: true });
    key = (await runCliJsonInProcess<{ api_key: string }>(['init', '--data-dir', dataDir, '--yes', '--json'], { ...process.env, ...env })).api_key;
    daemon = await spawnDaemon(dataDir, env);
  });
  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await emu?.close();
    await zebra?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no job and prints none twice after kill -9 and a restart', async () => {
    const channel = (await api('/v1/shipping-channels', 'POST', { name: 'PPL', provider: 'ppl', settings: { clientId: 'c', clientSecret: 'crash-secret', baseUrl: emu.urls.ppl } })).body.data.id;
    const printer = (await api('/v1/printers', 'POST', { name: 'Zebra', uri: zebra.uri, formats: ['zpl'], default_for: ['zpl'] })).body.data;
    expect(printer.status_detail.paper_out).toBe(true);

    // the printer is out of paper while the shipments are created: their labels queue up
    const ids: string[] = [];
    for (let i = 0; i < SHIPMENTS; i++) {
      const res = await api('/v1/shipments', 'POST', shipmentBody(channel, { label_format: 'zpl', reference_number: `PC-${i}`, print: { printer_id: printer.id } }));
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    await until('shipments created and their print jobs queued', async () => {
      const created = (await api('/v1/shipments?status=created&per_page=100')).body.meta.total === SHIPMENTS;
      return created && (await api('/v1/print-jobs?status=queued&per_page=100')).body.meta.total === SHIPMENTS;
    });
    expect(labelsReceived()).toBe(0);

    // paper in; the daemon is killed while it asks the printer's status before the sixth label
    let release: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      zebra.beforeAnswer = (_query, onConnection) => {
        if (onConnection !== 1 || labelsReceived() !== 5) return;
        resolve();
        return new Promise<void>((r) => { release = r; });
      };
    });
    zebra.clear();
    zebra.flags.paperOut = false;
    const test = await api(`/v1/printers/${printer.id}/test`, 'POST', { formats: ['zpl'] }); // queuing asks the waiting printer again at once
    expect(test.status).toBe(202);
    await holding;
    expect(await daemon.stop('SIGKILL')).toBeNull();
    zebra.beforeAnswer = undefined;
    release();
    expect(labelsReceived()).toBe(5);
    expect(jobStatuses()).toEqual({ printed: 5, printing: 1, queued: SHIPMENTS + 1 - 6 });

    daemon = await spawnDaemon(dataDir, env);
    await until('every print job printed', async () => (await api('/v1/print-jobs?status=printed&per_page=100')).body.meta.total === SHIPMENTS + 1);
    expect(daemon.output()).toContain('resuming print jobs of a previous run');

    const received = zebra.labelBytes();
    const labels = await Promise.all(ids.map(async (id) => (await api(`/v1/shipments/${id}/label?download=1`)).body as Buffer));
    for (const [i, label] of labels.entries()) {
      const first = received.indexOf(label);
      expect(first, `label of ${ids[i]} printed`).toBeGreaterThanOrEqual(0);
      expect(received.indexOf(label, first + 1), `label of ${ids[i]} printed twice`).toBe(-1);
    }
    expect(labelsReceived()).toBe(SHIPMENTS + 1);
    const testLabel = received.toString('latin1').match(/\^XA[\s\S]*?\^XZ/g)!.filter((l) => l.includes('packdesk test label'));
    expect(testLabel).toHaveLength(1);
    expect(received.length).toBe(labels.reduce((n, l) => n + l.length, 0) + Buffer.byteLength(testLabel[0]!, 'latin1') + 1);
  });
});
