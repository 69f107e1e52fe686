import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/bin/packdesk.js', import.meta.url));

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Env = Record<string, string>;

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  line: string;
}

interface TrackingParcel {
  id: string;
  tracking_number: string;
  status: string;
  origin: string;
  shipment_id: string | null;
  checks_done: number;
  next_check_at: string | null;
  status_updates: { status: string; carrier_status: { code: string; text: string | null } }[];
}

let tmp: string;
let baseEnv: Env;

/** The environment of the test runner without any packdesk settings, so only what a test passes counts. */
function isolatedEnv(): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('PACKDESK_')) env[key] = value;
  return env;
}

function cli(args: string[], env: Env = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

async function cliJson<T>(args: string[], env: Env = {}): Promise<T> {
  const result = await cli(args, env);
  if (result.code !== 0) throw new Error(`packdesk ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Spawns a long-running packdesk command and waits for the first stdout line that `ready` accepts. */
function startProcess(args: string[], ready: (line: string) => boolean): Promise<Running> {
  const child = spawn(process.execPath, [CLI, ...args], { env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`packdesk ${args[0]} did not start:\n${output}`)), 20_000);
    void exited.then((code) => reject(new Error(`packdesk ${args[0]} exited with ${code}:\n${output}`)));
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find(ready);
      if (line) {
        clearTimeout(timer);
        resolve({ child, exited, line });
      }
    });
  });
}

describe('packdesk track against a real daemon and the PPL emulator', () => {
  let emulator: Running;
  let daemon: Running;
  let emulatorUrl: string;
  let daemonUrl: string;
  let env: Env;
  let apiKey: string;
  let shipChannel: string;
  let trackChannel: string;
  let shipmentId: string;
  let number: string;
  let external: TrackingParcel;

  const advance = async (trackingNumber: string, to: string) => {
    const res = await fetch(`${emulatorUrl}/_emulator/ppl/parcels/${trackingNumber}/advance`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to }),
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-cli-track-'));
    const dataDir = join(tmp, 'data');
    baseEnv = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true' };

    emulator = await startProcess(['emulate', '--providers', 'ppl', '--port', '0', '--json'], (l) => l.trim().startsWith('{'));
    const pplUrl = (JSON.parse(emulator.line) as { ppl: string }).ppl;
    emulatorUrl = pplUrl.replace(/\/ppl$/, '');

    apiKey = (await cliJson<{ api_key: string }>(['init', '--data-dir', dataDir, '--yes', '--json'])).api_key;
    daemon = await startProcess(['daemon', '--data-dir', dataDir, '--port', '0'], (l) => l.includes('"msg":"listening"'));
    daemonUrl = (JSON.parse(daemon.line) as { url: string }).url;
    env = { PACKDESK_URL: daemonUrl, PACKDESK_API_KEY: apiKey };

    const channel = (name: string) => cliJson<{ id: string; status: string }>([
      'channels', 'add', '--name', name, '--provider', 'ppl', '--setting', 'clientId=c1', '--setting', 'clientSecret=s3cret',
      '--setting', `baseUrl=${pplUrl}`, '--json',
    ], env);
    shipChannel = (await channel('PPL shipping')).id;
    // the same PPL account on a second channel: numbers shipped on the first can be tracked on it by hand
    trackChannel = (await channel('PPL tracking')).id;

    const res = await fetch(`${daemonUrl}/v1/shipments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', prefer: 'wait=30' },
      body: JSON.stringify({
        shipping_channel_id: shipChannel, label_format: 'pdf', reference_number: 'TRACK-1',
        sender_contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
        recipient_contact: { first_name: 'Jana', last_name: 'Nováková', email_address: 'jana@example.cz', phone_number: '+420602333444' },
        origin_address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
        destination_address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
        parcels: [{ weight_amount: 1.5, length_dimension: 30, width_dimension: 20, height_dimension: 10 }],
      }),
    });
    const shipment = (await res.json()) as { data: { id: string; status: string; parcels: { tracking_number: string }[] } };
    expect(shipment.data.status).toBe('created');
    shipmentId = shipment.data.id;
    number = shipment.data.parcels[0]!.tracking_number;
  });

  afterAll(async () => {
    if (daemon) {
      daemon.child.kill('SIGTERM');
      expect(await daemon.exited).toBe(0);
    }
    if (emulator) {
      emulator.child.kill('SIGTERM');
      await emulator.exited;
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('track add --json tracks a PPL number on a channel; a bad number or a second add fails with the field named', async () => {
    external = await cliJson<TrackingParcel>(['track', 'add', number, '--channel', trackChannel, '--check-delay-hours', '2', '--max-checks', '10', '--json'], env);
    expect(external).toMatchObject({ tracking_number: number, status: 'created', origin: 'external', shipment_id: null, checks_done: 0 });
    expect(external.id).toMatch(/^tp_/);

    const twice = await cli(['track', 'add', number, '--channel', trackChannel], env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('tracking_number: is already tracked on this shipping channel');
    const bad = await cli(['track', 'add', '12AB', '--channel', trackChannel], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tracking_number: is not a PPL tracking number/);
    const noChannel = await cli(['track', 'add', number], env);
    expect(noChannel.code).toBe(2);
    const badDelay = await cli(['track', 'add', number, '--channel', trackChannel, '--check-delay-hours', 'soon'], env);
    expect(badDelay.code).toBe(2);
  });

  it('track refresh asks PPL now and shows the new status with the carrier code', async () => {
    await advance(number, 'in_transit');
    const refreshed = await cliJson<TrackingParcel>(['track', 'refresh', external.id, '--json'], env);
    expect(refreshed.status).toBe('in_transit');
    expect(refreshed.checks_done).toBeGreaterThanOrEqual(1);
    expect(refreshed.status_updates.map((u) => u.carrier_status.code)).toEqual(['150', '900']);

    await advance(number, 'out_for_delivery');
    const human = await cli(['track', 'refresh', external.id], env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/status\s+out_for_delivery/);
    expect(human.stdout).toContain('status updates (newest first)');
    expect(human.stdout).toMatch(/out_for_delivery\s*│\s*400\s*│\s*Out for delivery/);
  });

  it('track show and track list, with filters, in tables and JSON', async () => {
    const shown = await cli(['track', 'show', external.id], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(number);
    expect(shown.stdout).toMatch(/checks\s+\d+ of 10, every 2 h/);

    const list = await cliJson<{ data: TrackingParcel[]; meta: { total: number } }>(['track', 'list', '--json'], env);
    expect(list.meta.total).toBe(2); // the shipment's parcel and the one added by hand
    expect(list.data.map((p) => p.origin).sort()).toEqual(['external', 'shipment']);
    const moving = await cliJson<{ data: TrackingParcel[] }>(['track', 'list', '--status', 'out_for_delivery', '--json'], env);
    expect(moving.data.map((p) => p.id)).toEqual([external.id]);
    const byChannel = await cliJson<{ data: TrackingParcel[] }>(['track', 'list', '--channel', shipChannel, '--json'], env);
    expect(byChannel.data.map((p) => p.shipment_id)).toEqual([shipmentId]);
    const table = await cli(['track', 'list', '--search', number.slice(2, 8)], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(external.id);
    expect(table.stdout).toContain('page 1 of 1, 2 in all');
  });

  it("shipments show lists each parcel's tracking status, kept by the shipment's own tracking parcel", async () => {
    const list = await cliJson<{ data: TrackingParcel[] }>(['track', 'list', '--channel', shipChannel, '--json'], env);
    const internal = list.data[0]!;
    expect(await cliJson<TrackingParcel>(['track', 'refresh', internal.id, '--json'], env)).toMatchObject({ status: 'out_for_delivery' });
    const shown = await cli(['shipments', 'show', shipmentId], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/status\s+shipped/);
    expect(shown.stdout).toContain('tracking status');
    expect(shown.stdout).toMatch(new RegExp(`${number}\\s*│\\s*out_for_delivery`));

    const refused = await cli(['track', 'remove', internal.id], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('enable_tracking');
  });

  it('track remove stops tracking a number added by hand; show then exits 3', async () => {
    const removed = await cli(['track', 'remove', external.id], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe(`removed ${external.id}\n`);
    const gone = await cli(['track', 'show', external.id], env);
    expect(gone.code).toBe(3);
    expect((await cli(['track', 'remove', 'tp_00000000000000000000'], env)).code).toBe(3);
  });
});
