import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/bin/packdesk.js', import.meta.url));
const MASK = '••••••••';
const DHL_SECRET = 'dhl-secret-Zq81-never-shown';
const WEBHOOK_SECRET = 'webhook-secret-Kx93-never-shown';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Env = Record<string, string>;

let tmp: string;
let dataDir: string;
let baseEnv: Env;

/** The environment of the test runner without any packdesk settings, so only what a test passes counts. */
function isolatedEnv(): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('PACKDESK_')) env[key] = value;
  return env;
}

function cli(args: string[], env: Env = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...baseEnv, ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a command that must succeed and returns its stdout parsed as JSON. */
async function cliJson<T = Record<string, unknown>>(args: string[], env: Env = {}): Promise<T> {
  const result = await cli(args, env);
  if (result.code !== 0) throw new Error(`packdesk ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function startDaemon(): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [CLI, 'daemon', '--data-dir', dataDir, '--port', '0'], { env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start:\n${output}`)), 20_000);
    void exited.then((code) => reject(new Error(`daemon exited with ${code}:\n${output}`)));
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, url: (JSON.parse(line) as { url: string }).url, exited });
      }
    });
  });
}

interface InitOutput {
  account_id: string;
  api_key: string;
  data_dir: string;
  config_path: string;
  url: string;
}

interface Channel {
  id: string;
  name: string;
  provider: string;
  status: string;
  settings: Record<string, unknown>;
}

interface Subscription {
  id: string;
  name: string;
  url: string;
  events: string[];
  status: string;
  secret: string;
}

interface ListBody<T> {
  data: T[];
  meta: { total: number; current_page: number; per_page: number };
  links: Record<string, string | null>;
}

describe('packdesk CLI against a real daemon', () => {
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  let init: InitOutput;
  let envA: Env;
  let envB: Env;
  let accountB: string;
  let channelA: Channel;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-cli-'));
    dataDir = join(tmp, 'data');
    baseEnv = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true' };
    init = await cliJson<InitOutput>(['init', '--data-dir', dataDir, '--yes', '--json']);
    daemon = await startDaemon();
    accountB = (await cliJson<{ account_id: string }>(['accounts', 'create', '--name', 'Second shop', '--data-dir', dataDir, '--json'])).account_id;
    const keyB = await cliJson<{ api_key: string }>(['keys', 'create', '--account', accountB, '--data-dir', dataDir, '--json']);
    envA = { PACKDESK_URL: daemon.url, PACKDESK_API_KEY: init.api_key };
    envB = { PACKDESK_URL: daemon.url, PACKDESK_API_KEY: keyB.api_key };
  });

  afterAll(async () => {
    if (daemon) {
      daemon.child.kill('SIGTERM');
      expect(await daemon.exited).toBe(0);
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('init --json prints the account, key, data dir, config path and url, and writes the config file 0600', () => {
    expect(init.account_id).toMatch(/^acc_[A-Za-z0-9]{20}$/);
    expect(init.api_key).toMatch(/^pdk_live_[A-Za-z0-9]{32,}$/);
    expect(init.data_dir).toBe(dataDir);
    expect(init.config_path).toBe(join(tmp, 'cfg', 'packdesk', 'config.json'));
    expect(init.url).toBe('http://127.0.0.1:7420');
    expect(statSync(init.config_path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(init.config_path, 'utf8'))).toMatchObject({ url: init.url, api_key: init.api_key, account_id: init.account_id });
  });

  it('refuses a second daemon on the same data directory, naming it', async () => {
    const second = await cli(['daemon', '--data-dir', dataDir, '--port', '0']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(dataDir);
  });

  it('status --json reports the daemon, its health and the account of the key', async () => {
    const status = await cliJson<{ url: string; status: string; version: string; store: string; account: { id: string; plan: string } }>(['status', '--json'], envA);
    expect(status).toMatchObject({ url: daemon.url, status: 'ok', store: 'ok', account: { id: init.account_id, plan: 'enterprise' } });
    expect(status.version).toMatch(/^\d+\.\d+\.\d+/);
    const human = await cli(['status'], envB);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(daemon.url);
    expect(human.stdout).toContain(accountB);
    expect(human.stdout + human.stderr).not.toContain(envB.PACKDESK_API_KEY);
  });

  it('providers --json lists the 13 providers; providers show prints a settings schema', async () => {
    const providers = await cliJson<{ code: string }[]>(['providers', '--json'], envA);
    expect(providers).toHaveLength(13);
    expect(providers.map((p) => p.code)).toContain('dhl');
    expect(await cliJson<unknown[]>(['providers', 'list', '--json'], envA)).toHaveLength(13);
    const dhl = await cliJson<{ settings: { key: string; secret: boolean; required: boolean }[] }>(['providers', 'show', 'dhl', '--json'], envA);
    expect(dhl.settings.find((s) => s.key === 'apiSecret')).toMatchObject({ secret: true, required: true });
    const table = await cli(['providers', 'show', 'dhl'], envA);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/apiSecret\s*│\s*string\s*│\s*yes\s*│\s*yes/);
    expect((await cli(['providers', 'show', 'nope'], envA)).code).toBe(3);
  });

  it('channels add with --setting creates a dhl channel whose secret is masked and never printed', async () => {
    const args = [
      'channels', 'add', '--name', 'DHL Express main', '--provider', 'dhl', '--description', 'express lane',
      '--setting', 'apiKey=dhl-user', '--setting', `apiSecret=${DHL_SECRET}`, '--setting', 'accountNumber=123456789',
      '--setting', 'sandboxMode=true',
    ];
    const result = await cli([...args, '--json'], envA);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(DHL_SECRET);
    channelA = JSON.parse(result.stdout) as Channel;
    expect(channelA).toMatchObject({
      name: 'DHL Express main', provider: 'dhl', status: 'pending_validation',
      settings: { apiKey: 'dhl-user', apiSecret: MASK, accountNumber: '123456789', sandboxMode: true },
    });
    expect(channelA.id).toMatch(/^ch_/);
    const shown = await cli(['channels', 'show', channelA.id], envA);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(MASK);
    expect(shown.stdout + shown.stderr).not.toContain(DHL_SECRET);
    const list = await cliJson<ListBody<Channel>>(['channels', 'list', '--provider', 'dhl', '--json'], envA);
    expect(list.data.map((c) => c.id)).toContain(channelA.id);
    expect(list.meta).toMatchObject({ current_page: 1, per_page: 20, total: 1 });
    expect(JSON.stringify(list)).not.toContain(DHL_SECRET);
  });

  it('channels add with an unknown setting key fails and names settings.<key>', async () => {
    const result = await cli([
      'channels', 'add', '--name', 'DHL typo', '--provider', 'dhl', '--setting', 'apiKey=u', '--setting', `apiSecret=${DHL_SECRET}`,
      '--setting', 'accountNumber=1', '--setting', 'warehouseColour=blue',
    ], envA);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('settings.warehouseColour');
    expect(result.stdout + result.stderr).not.toContain(DHL_SECRET);
  });

  it('channels add reports local usage errors with exit 2 and API field errors with exit 1', async () => {
    const noEquals = await cli(['channels', 'add', '--name', 'x', '--provider', 'dhl', '--setting', 'apiKey'], envA);
    expect(noEquals.code).toBe(2);
    expect(noEquals.stderr).toContain('key=value');
    const notBoolean = await cli(['channels', 'add', '--name', 'x', '--provider', 'dhl', '--setting', 'sandboxMode=maybe'], envA);
    expect(notBoolean.code).toBe(2);
    expect(notBoolean.stderr).toContain('sandboxMode must be true or false');
    const missing = await cli(['channels', 'add', '--provider', 'dhl'], envA);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^ {2}name: /m);
    expect(missing.stderr).toMatch(/^ {2}settings\.apiSecret: /m);
  });

  it('channels validate on a dhl channel fails: no adapter for dhl yet', async () => {
    const result = await cli(['channels', 'validate', channelA.id], envA);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no adapter for dhl yet');
  });

  it('channels update changes fields and settings, typed by the schema', async () => {
    const updated = await cliJson<Channel & { description: string }>([
      'channels', 'update', channelA.id, '--description', 'night shift', '--setting', 'sandboxMode=false', '--status', 'inactive', '--json',
    ], envA);
    expect(updated).toMatchObject({ id: channelA.id, description: 'night shift', status: 'inactive', settings: { sandboxMode: false, apiSecret: MASK } });
    expect((await cli(['channels', 'update', channelA.id, '--status', 'paused'], envA)).code).toBe(2);
    expect((await cli(['channels', 'update', channelA.id], envA)).code).toBe(2);
  });

  it("keeps accounts apart: B never sees A's channels or webhooks", async () => {
    const webhookA = await cliJson<Subscription>(['webhooks', 'add', '--name', 'A hook', '--url', 'http://127.0.0.1:9/a', '--event', '*', '--json'], envA);
    const listB = await cliJson<ListBody<Channel>>(['channels', 'list', '--json'], envB);
    expect(listB.data.map((c) => c.id)).not.toContain(channelA.id);
    expect(listB.meta.total).toBe(0);
    const showB = await cli(['channels', 'show', channelA.id], envB);
    expect(showB.code).toBe(1);
    expect(showB.stderr).toMatch(/do not have permission/);
    const hooksB = await cliJson<ListBody<Subscription>>(['webhooks', 'list', '--json'], envB);
    expect(hooksB.data.map((w) => w.id)).not.toContain(webhookA.id);
    const hookShowB = await cli(['webhooks', 'show', webhookA.id], envB);
    expect(hookShowB.code).toBe(1);
    expect(hookShowB.stderr).toMatch(/do not have permission/);
    expect((await cli(['channels', 'remove', channelA.id], envB)).code).toBe(1);
    expect((await cli(['webhooks', 'remove', webhookA.id], envA)).code).toBe(0);
  });

  it('webhooks add, list, show, update, logs and remove round-trip with --json, the secret masked', async () => {
    const add = await cli([
      'webhooks', 'add', '--name', 'ERP', '--url', 'http://127.0.0.1:9/hooks', '--event', 'shipment.created',
      '--events', 'shipping_channel.created,shipping_channel.deleted', '--secret', WEBHOOK_SECRET, '--json',
    ], envA);
    expect(add.code).toBe(0);
    expect(add.stdout + add.stderr).not.toContain(WEBHOOK_SECRET);
    const created = JSON.parse(add.stdout) as Subscription;
    expect(created).toMatchObject({
      name: 'ERP', url: 'http://127.0.0.1:9/hooks', status: 'active', secret: '••••••••••••••••',
      events: ['shipment.created', 'shipping_channel.created', 'shipping_channel.deleted'],
    });
    const list = await cliJson<ListBody<Subscription>>(['webhooks', 'list', '--json'], envA);
    expect(list.data.map((w) => w.id)).toEqual([created.id]);
    expect(list.meta).toMatchObject({ total: 1, per_page: 15 });
    expect(await cliJson<Subscription>(['webhooks', 'show', created.id, '--json'], envA)).toEqual(created);
    const paused = await cliJson<Subscription>(['webhooks', 'update', created.id, '--paused', '--name', 'ERP (paused)', '--json'], envA);
    expect(paused).toMatchObject({ id: created.id, status: 'paused', name: 'ERP (paused)', secret: '••••••••••••••••' });
    const resumed = await cliJson<Subscription>(['webhooks', 'update', created.id, '--active', '--events', '*', '--json'], envA);
    expect(resumed).toMatchObject({ status: 'active', events: ['*'] });
    expect((await cli(['webhooks', 'update', created.id, '--paused', '--active'], envA)).code).toBe(2);

    const logs = await cliJson<ListBody<unknown>>(['webhooks', 'logs', created.id, '--json'], envA);
    expect(logs.data).toEqual([]);
    expect(logs.meta).toMatchObject({ total: 0, per_page: 15 });
    const humanLogs = await cli(['webhooks', 'logs', created.id], envA);
    expect(humanLogs.stdout).toContain('(none)');
    expect((await cli(['webhooks', 'logs', created.id, 'whl_doesnotexist'], envA)).code).toBe(3);

    const removed = await cli(['webhooks', 'remove', created.id, '--json'], envA);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ id: created.id, deleted: true });
    expect((await cli(['webhooks', 'show', created.id], envA)).code).toBe(3);
  });

  it('webhooks add prints the API field errors and exits 1', async () => {
    const result = await cli(['webhooks', 'add', '--name', 'bad', '--url', 'ftp://example.com/x', '--event', 'no.such_event'], envA);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ {2}url: /m);
    expect(result.stderr).toMatch(/^ {2}events\.0: /m);
  });

  it('channels remove deletes the channel; show then exits 3', async () => {
    const removed = await cli(['channels', 'remove', channelA.id], envA);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(channelA.id);
    const gone = await cli(['channels', 'show', channelA.id], envA);
    expect(gone.code).toBe(3);
  });

  it('channels show of an id that exists nowhere exits 3', async () => {
    const result = await cli(['channels', 'show', 'ch_doesnotexist'], envA);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('not found');
  });

  it('a revoked key makes status and channels list exit 1 with the 401 message', async () => {
    const key = await cliJson<{ id: string; api_key: string }>(['keys', 'create', '--account', accountB, '--data-dir', dataDir, '--json']);
    const env = { PACKDESK_URL: daemon.url, PACKDESK_API_KEY: key.api_key };
    expect((await cli(['status'], env)).code).toBe(0);
    expect((await cli(['keys', 'revoke', key.id, '--data-dir', dataDir])).code).toBe(0);
    for (const args of [['status'], ['channels', 'list']]) {
      const result = await cli(args, env);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain('Invalid or missing API key');
      expect(result.stderr).not.toContain(key.api_key);
    }
  });

  it('an unreachable daemon exits 4 with one line on stderr', async () => {
    const env = { PACKDESK_URL: 'http://127.0.0.1:9', PACKDESK_API_KEY: init.api_key };
    for (const args of [['status'], ['channels', 'list', '--json'], ['providers']]) {
      const result = await cli(args, env);
      expect(result.code, args.join(' ')).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('cannot reach the packdesk daemon at http://127.0.0.1:9');
    }
  });

  it('an unknown subcommand exits 2', async () => {
    expect((await cli(['channels', 'frobnicate'], envA)).code).toBe(2);
    expect((await cli(['webhooks', 'frobnicate'], envA)).code).toBe(2);
    expect((await cli(['frobnicate'], envA)).code).toBe(2);
  });
});
