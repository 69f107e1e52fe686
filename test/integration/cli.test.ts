import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CLI, runCli, runShell, startStation, type Env, type Station } from '../helpers/cli.js';

const MASK = '••••••••';
const DHL_SECRET = 'dhl-secret-Zq81-never-shown';
const WEBHOOK_SECRET = 'webhook-secret-Kx93-never-shown';

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
  let station: Station;
  let envB: Env;
  let accountB: string;
  let channelA: Channel;

  beforeAll(async () => {
    station = await startStation({ ppl: true });
    const { dataDir, localEnv } = station;
    accountB = (await station.cliJson<{ account_id: string }>(['accounts', 'create', '--name', 'Second shop', '--data-dir', dataDir, '--json'], localEnv)).account_id;
    const keyB = await station.cliJson<{ api_key: string }>(['keys', 'create', '--account', accountB, '--data-dir', dataDir, '--json'], localEnv);
    envB = { ...station.env, PACKDESK_API_KEY: keyB.api_key };
  });

  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  it('init --json prints the account, key, data dir, config path and url, and writes the config file 0600', () => {
    const { init, dataDir, tmp } = station;
    expect(init.account_id).toMatch(/^acc_[A-Za-z0-9]{20}$/);
    expect(init.api_key).toMatch(/^pdk_live_[A-Za-z0-9]{32,}$/);
    expect(init.data_dir).toBe(dataDir);
    expect(init.config_path).toBe(join(tmp, 'cfg', 'packdesk', 'config.json'));
    expect(init.url).toBe('http://127.0.0.1:7420');
    expect(statSync(init.config_path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(init.config_path, 'utf8'))).toMatchObject({ url: init.url, api_key: init.api_key, account_id: init.account_id });
  });

  it('refuses a second daemon on the same data directory, naming it', async () => {
    const second = await station.cli(['daemon', '--data-dir', station.dataDir, '--port', '0'], station.localEnv);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(station.dataDir);
  });

  it('desk prints a one-time link that signs a browser in to the desk of the key\'s account', async () => {
    const desk = await station.cliJson<{ url: string; expires_at: string }>(['desk', '--json']);
    expect(desk.url).toMatch(new RegExp(`^${station.daemonUrl}/desk/login\\?token=[0-9A-Za-z]{43}$`));
    const opened = await fetch(desk.url, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const cookie = String(opened.headers.get('set-cookie')).split(';')[0]!;
    const session = await (await fetch(`${station.daemonUrl}/v1/desk/session`, { headers: { cookie } })).json() as { data: { account: { id: string } } };
    expect(session.data.account.id).toBe(station.init.account_id);
    const text = await station.cli(['desk', '--no-open']);
    expect(text.stdout).toMatch(/^Open the desk in a browser: http:\/\/127\.0\.0\.1:\d+\/desk\/login\?token=/);
  });

  it('desk on a machine where no browser opens says it printed the link, and "opened" only when a browser took it', async () => {
    const bin = join(station.tmp, 'bin-desk');
    mkdirSync(bin, { recursive: true });
    const opener = (script: string) => {
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\n${script}\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);
    };
    const { CI: _ci, DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ...desktop } = station.env;
    const env = (extra: Env) => ({ ...desktop, PATH: `${bin}:${station.env.PATH}`, ...extra });

    // xdg-open as it ends on a desktop without a browser: exit 3, "no method available for opening"
    opener('exit 3');
    const failed = await station.cli(['desk'], env({ DISPLAY: ':0' }));
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.stdout).toMatch(/^No browser opened \(xdg-open could not open a browser \(exit 3\)\), so here is the link to open in one: http:\/\/127\.0\.0\.1:\d+\/desk\/login\?token=/);
    expect(failed.stdout).not.toContain('Opened');

    // a server without a graphical session: nothing is tried at all
    const tried = join(station.tmp, 'xdg-open-ran');
    opener(`touch '${tried}'`);
    const headless = await station.cli(['desk'], env({}));
    expect(headless.stdout).toMatch(/^No browser here \(no graphical session \(DISPLAY and WAYLAND_DISPLAY are unset\)\), so here is the link to open in one: http/);
    expect(existsSync(tried)).toBe(false);

    opener('exit 0');
    const opened = await station.cli(['desk'], env({ DISPLAY: ':0' }));
    expect(opened.stdout).toMatch(/^Opened the desk in your browser: http/);
  });

  it('a reader that stops reading ends a command quietly with exit 0: `packdesk status | head -1`, no EPIPE trace', async () => {
    // the reader is gone before the command writes its first line
    const child = spawn(process.execPath, [CLI, 'status'], { env: station.env, cwd: station.desk, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
    const [code] = await once(child, 'close') as [number | null];
    expect(stderr).toBe('');
    expect(code).toBe(0);

    // as typed in a shell: `head -n 1` reads the first line of 75 KB (more than a pipe holds) and goes
    const err = join(station.tmp, 'epipe.err');
    const status = join(station.tmp, 'epipe.code');
    const shell = await runShell(`( '${process.execPath}' '${CLI}' completion fish 2>'${err}'; echo $? >'${status}' ) | head -n 1`, station.env, station.desk);
    expect(shell.stdout).toBe("# packdesk completion for fish, written by `packdesk completion fish`.\n");
    expect(readFileSync(err, 'utf8')).toBe('');
    expect(readFileSync(status, 'utf8').trim()).toBe('0');
  });

  it('status --json reports the daemon, its health, the account of the key and the daemons on its store', async () => {
    const status = await station.cliJson<{
      url: string; status: string; version: string; store: string; account: { id: string; plan: string }; daemons: { station: string; pid: number; version: string }[];
    }>(['status', '--json']);
    expect(status).toMatchObject({ url: station.daemonUrl, status: 'ok', store: 'ok', account: { id: station.init.account_id, plan: 'enterprise' } });
    expect(status.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(status.daemons).toEqual([expect.objectContaining({ station: hostname(), version: status.version })]);
    const human = await station.cli(['status'], envB);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(station.daemonUrl);
    expect(human.stdout).toContain(accountB);
    expect(human.stdout).toContain(hostname());
    expect(human.stdout + human.stderr).not.toContain(envB.PACKDESK_API_KEY);
  });

  it('providers --json lists the 15 providers; providers show prints a settings schema', async () => {
    const providers = await station.cliJson<{ code: string }[]>(['providers', '--json']);
    expect(providers).toHaveLength(15);
    expect(providers.map((p) => p.code)).toContain('dhl');
    expect(await station.cliJson<unknown[]>(['providers', 'list', '--json'])).toHaveLength(15);
    const dhl = await station.cliJson<{ settings: { key: string; secret: boolean; required: boolean }[] }>(['providers', 'show', 'dhl', '--json']);
    expect(dhl.settings.find((s) => s.key === 'apiSecret')).toMatchObject({ secret: true, required: true });
    const table = await station.cli(['providers', 'show', 'dhl']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/apiSecret\s*│\s*string\s*│\s*yes\s*│\s*yes/);
    expect((await station.cli(['providers', 'show', 'nope'])).code).toBe(3);
  });

  it('channels add with --setting creates a dhl channel whose secret is masked and never printed', async () => {
    const args = [
      'channels', 'add', '--name', 'DHL Express main', '--provider', 'dhl', '--description', 'express lane',
      '--setting', 'apiKey=dhl-user', '--setting', `apiSecret=${DHL_SECRET}`, '--setting', 'accountNumber=123456789',
      '--setting', 'sandboxMode=true', '--setting', 'baseUrl=http://127.0.0.1:9', // a closed local port: nothing leaves the machine
    ];
    const result = await station.cli([...args, '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(DHL_SECRET);
    channelA = JSON.parse(result.stdout) as Channel;
    expect(channelA).toMatchObject({
      name: 'DHL Express main', provider: 'dhl', status: 'pending_validation',
      settings: { apiKey: 'dhl-user', apiSecret: MASK, accountNumber: '123456789', sandboxMode: true, baseUrl: 'http://127.0.0.1:9' },
    });
    expect(channelA.id).toMatch(/^ch_/);
    const shown = await station.cli(['channels', 'show', channelA.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(MASK);
    expect(shown.stdout + shown.stderr).not.toContain(DHL_SECRET);
    const list = await station.cliJson<ListBody<Channel>>(['channels', 'list', '--provider', 'dhl', '--json']);
    expect(list.data.map((c) => c.id)).toContain(channelA.id);
    expect(list.meta).toMatchObject({ current_page: 1, per_page: 20, total: 1 });
    expect(JSON.stringify(list)).not.toContain(DHL_SECRET);
  });

  it("channels add exits 1 with the carrier's reason when the carrier refuses the settings, and says when the carrier could not be reached", async () => {
    const ppl = ['--provider', 'ppl', '--setting', 'clientSecret=s3cret'];
    const refused = await station.cli(['channels', 'add', '--name', 'PPL refused', ...ppl, '--setting', 'clientId=bad-client', '--setting', `baseUrl=${station.pplUrl}`]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^status\s+error$/m);
    expect(refused.stderr).toMatch(/^packdesk: the carrier refused the channel's settings: PPL refused the credentials/);
    const json = await station.cli(['channels', 'add', '--name', 'PPL refused 2', ...ppl, '--setting', 'clientId=bad-client', '--setting', `baseUrl=${station.pplUrl}`, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'error' });
    expect(Object.keys((JSON.parse(json.stderr) as { errors: Record<string, string[]> }).errors)).toEqual(['settings.clientSecret']);

    const unreachable = await station.cli(['channels', 'add', '--name', 'PPL not reached', ...ppl, '--setting', 'clientId=c1', '--setting', 'baseUrl=http://127.0.0.1:9']);
    expect(unreachable.code, unreachable.stderr).toBe(0);
    const id = /^id\s+(ch_\w+)$/m.exec(unreachable.stdout)![1]!;
    expect(unreachable.stdout).toContain(`The carrier could not be reached, so the settings are not checked yet: ${id} is saved as pending_validation.`);
    expect(unreachable.stdout).toContain(`packdesk channels validate ${id}`);
  });

  it('providers show and channels show name the carrier products beside their codes', async () => {
    const provider = await station.cli(['providers', 'show', 'ppl']);
    expect(provider.code).toBe(0);
    expect(provider.stdout).toMatch(/^products\n {2}PRIV — PPL Parcel CZ Private\n {2}PRID — PPL Parcel CZ Private - dobírka\n/m);
    const channel = await station.cliJson<Channel>([
      'channels', 'add', '--name', 'PPL business', '--provider', 'ppl', '--setting', 'clientId=c1', '--setting', 'clientSecret=s3cret',
      '--setting', `baseUrl=${station.pplUrl}`, '--setting', 'productType=BUSS', '--json',
    ]);
    const shown = await station.cli(['channels', 'show', channel.id]);
    expect(shown.stdout).toMatch(/^product\s+BUSS — PPL Parcel CZ Business$/m);
    expect(shown.stdout).toContain('productType=BUSS — PPL Parcel CZ Business');
    expect((await station.cliJson<Channel>(['channels', 'show', channel.id, '--json'])).settings.productType).toBe('BUSS');
  });

  it('channels list ends its output with a newline: a table, none, and JSON', async () => {
    for (const args of [['channels', 'list'], ['channels', 'list', '--provider', 'gls'], ['channels', 'list', '--json']]) {
      const listed = await station.cli(args);
      expect(listed.code, args.join(' ')).toBe(0);
      expect(listed.stdout, args.join(' ')).toMatch(/[^\n]\n$/);
    }
  });

  it('channels add with an unknown setting key fails and names settings.<key>', async () => {
    const result = await station.cli([
      'channels', 'add', '--name', 'DHL typo', '--provider', 'dhl', '--setting', 'apiKey=u', '--setting', `apiSecret=${DHL_SECRET}`,
      '--setting', 'accountNumber=123456789', '--setting', 'warehouseColour=blue',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('settings.warehouseColour');
    expect(result.stdout + result.stderr).not.toContain(DHL_SECRET);
  });

  it('channels add reports local usage errors with exit 2 and API field errors with exit 1', async () => {
    const noEquals = await station.cli(['channels', 'add', '--name', 'x', '--provider', 'dhl', '--setting', 'apiKey']);
    expect(noEquals.code).toBe(2);
    expect(noEquals.stderr).toContain('key=value');
    const notBoolean = await station.cli(['channels', 'add', '--name', 'x', '--provider', 'dhl', '--setting', 'sandboxMode=maybe']);
    expect(notBoolean.code).toBe(2);
    expect(notBoolean.stderr).toContain('sandboxMode must be true or false');
    const missing = await station.cli(['channels', 'add', '--provider', 'dhl']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^ {2}name: /m);
    expect(missing.stderr).toMatch(/^ {2}settings\.apiSecret: /m);
  });

  it('channels validate on a dhl channel whose carrier is unreachable fails and names it', async () => {
    const result = await station.cli(['channels', 'validate', channelA.id]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('unreachable');
  });

  it('channels update changes fields and settings, typed by the schema', async () => {
    const updated = await station.cliJson<Channel & { description: string }>([
      'channels', 'update', channelA.id, '--description', 'night shift', '--setting', 'sandboxMode=false', '--status', 'inactive', '--json',
    ]);
    expect(updated).toMatchObject({ id: channelA.id, description: 'night shift', status: 'inactive', settings: { sandboxMode: false, apiSecret: MASK } });
    expect((await station.cli(['channels', 'update', channelA.id, '--status', 'paused'])).code).toBe(2);
    expect((await station.cli(['channels', 'update', channelA.id])).code).toBe(2);

    const priceList = { currency: 'EUR', zones: [{ name: 'EU', countries: ['DE', 'AT'] }], bands: [{ max_weight_kg: 5, prices: { EU: 9.9 } }] };
    const file = join(station.tmp, 'price-list.json');
    writeFileSync(file, JSON.stringify(priceList));
    const priced = await station.cliJson<Channel & { price_list: unknown }>(['channels', 'update', channelA.id, '--price-list-json', file, '--json']);
    expect(priced.price_list).toEqual(priceList);
    writeFileSync(file, JSON.stringify({ ...priceList, bands: [{ max_weight_kg: 5, prices: { US: 20 } }] }));
    const refused = await station.cli(['channels', 'update', channelA.id, '--price-list-json', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/price_list\.bands\.0\.prices: has no price for zone "EU"/);
  });

  it("keeps accounts apart: B never sees A's channels or webhooks", async () => {
    const webhookA = await station.cliJson<Subscription>(['webhooks', 'add', '--name', 'A hook', '--url', 'http://127.0.0.1:9/a', '--event', '*', '--json']);
    const listB = await station.cliJson<ListBody<Channel>>(['channels', 'list', '--json'], envB);
    expect(listB.data.map((c) => c.id)).not.toContain(channelA.id);
    expect(listB.meta.total).toBe(0);
    const showB = await station.cli(['channels', 'show', channelA.id], envB);
    expect(showB.code).toBe(1);
    expect(showB.stderr).toMatch(/do not have permission/);
    const hooksB = await station.cliJson<ListBody<Subscription>>(['webhooks', 'list', '--json'], envB);
    expect(hooksB.data.map((w) => w.id)).not.toContain(webhookA.id);
    const hookShowB = await station.cli(['webhooks', 'show', webhookA.id], envB);
    expect(hookShowB.code).toBe(1);
    expect(hookShowB.stderr).toMatch(/do not have permission/);
    expect((await station.cli(['channels', 'remove', channelA.id], envB)).code).toBe(1);
    expect((await station.cli(['webhooks', 'remove', webhookA.id])).code).toBe(0);
  });

  it('webhooks add, list, show, update, logs and remove round-trip with --json, the secret masked', async () => {
    const add = await station.cli([
      'webhooks', 'add', '--name', 'ERP', '--url', 'http://127.0.0.1:9/hooks', '--event', 'shipment.created',
      '--events', 'shipping_channel.created,shipping_channel.deleted', '--secret', WEBHOOK_SECRET, '--json',
    ]);
    expect(add.code).toBe(0);
    expect(add.stdout + add.stderr).not.toContain(WEBHOOK_SECRET);
    const created = JSON.parse(add.stdout) as Subscription;
    expect(created).toMatchObject({
      name: 'ERP', url: 'http://127.0.0.1:9/hooks', status: 'active', secret: '••••••••••••••••',
      events: ['shipment.created', 'shipping_channel.created', 'shipping_channel.deleted'],
    });
    const list = await station.cliJson<ListBody<Subscription>>(['webhooks', 'list', '--json']);
    expect(list.data.map((w) => w.id)).toEqual([created.id]);
    expect(list.meta).toMatchObject({ total: 1, per_page: 15 });
    expect(await station.cliJson<Subscription>(['webhooks', 'show', created.id, '--json'])).toEqual(created);
    const paused = await station.cliJson<Subscription>(['webhooks', 'update', created.id, '--paused', '--name', 'ERP (paused)', '--json']);
    expect(paused).toMatchObject({ id: created.id, status: 'paused', name: 'ERP (paused)', secret: '••••••••••••••••' });
    const resumed = await station.cliJson<Subscription>(['webhooks', 'update', created.id, '--active', '--events', '*', '--json']);
    expect(resumed).toMatchObject({ status: 'active', events: ['*'] });
    expect((await station.cli(['webhooks', 'update', created.id, '--paused', '--active'])).code).toBe(2);

    const logs = await station.cliJson<ListBody<unknown>>(['webhooks', 'logs', created.id, '--json']);
    expect(logs.data).toEqual([]);
    expect(logs.meta).toMatchObject({ total: 0, per_page: 15 });
    const humanLogs = await station.cli(['webhooks', 'logs', created.id]);
    expect(humanLogs.stdout).toContain('(none)');
    expect((await station.cli(['webhooks', 'logs', created.id, 'whl_doesnotexist'])).code).toBe(3);

    const removed = await station.cli(['webhooks', 'remove', created.id, '--json']);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ id: created.id, deleted: true });
    expect((await station.cli(['webhooks', 'show', created.id])).code).toBe(3);
  });

  it('webhooks add prints the API field errors and exits 1', async () => {
    const result = await station.cli(['webhooks', 'add', '--name', 'bad', '--url', 'ftp://example.com/x', '--event', 'no.such_event']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ {2}url: /m);
    expect(result.stderr).toMatch(/^ {2}events\.0: /m);
  });

  it('channels remove deletes the channel; show then exits 3', async () => {
    const removed = await station.cli(['channels', 'remove', channelA.id]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(channelA.id);
    const gone = await station.cli(['channels', 'show', channelA.id]);
    expect(gone.code).toBe(3);
  });

  it('channels show of an id that exists nowhere exits 3', async () => {
    const result = await station.cli(['channels', 'show', 'ch_doesnotexist']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('not found');
  });

  it('a revoked key makes status and channels list exit 1 with the 401 message', async () => {
    const key = await station.cliJson<{ id: string; api_key: string }>(['keys', 'create', '--account', accountB, '--data-dir', station.dataDir, '--json'], station.localEnv);
    const env = { ...station.env, PACKDESK_API_KEY: key.api_key };
    expect((await station.cli(['status'], env)).code).toBe(0);
    expect((await station.cli(['keys', 'revoke', key.id, '--data-dir', station.dataDir], station.localEnv)).code).toBe(0);
    for (const args of [['status'], ['channels', 'list']]) {
      const result = await station.cli(args, env);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain('Invalid or missing API key');
      expect(result.stderr).not.toContain(key.api_key);
    }
  });

  it('an unreachable daemon exits 4 with one line on stderr', async () => {
    const env = { ...station.env, PACKDESK_URL: 'http://127.0.0.1:9' };
    for (const args of [['status'], ['channels', 'list', '--json'], ['providers']]) {
      const result = await station.cli(args, env);
      expect(result.code, args.join(' ')).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('cannot reach the packdesk daemon at http://127.0.0.1:9');
    }
  });

  it('an unknown command prints one line and a hint, not the whole help, and exits 2', async () => {
    for (const args of [['channels', 'frobnicate'], ['webhooks', 'frobnicate'], ['frobnicate']]) {
      const result = await station.cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toEqual([
        "packdesk: unknown command 'frobnicate'",
        `hint: \`${['packdesk', ...args.slice(0, -1), '--help'].join(' ')}\` shows what there is`,
      ]);
    }
    const typo = await station.cli(['shipmnts', 'list']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("packdesk: unknown command 'shipmnts'\nhint: did you mean `packdesk shipments`? `packdesk --help` shows what there is\n");
    const option = await station.cli(['shipments', 'list', '--stats', 'created']);
    expect(option.code).toBe(2);
    expect(option.stderr).toBe("packdesk: unknown option '--stats'\nhint: did you mean `--status`? `packdesk shipments list --help` shows what there is\n");
  });

  it('the executable itself ends with the exit codes the commands report (most tests run the program in-process)', async () => {
    const run = (args: string[], env = station.env) => runCli(args, env, { cwd: station.desk });
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['channels', 'show', 'ch_nope'])).code).toBe(3);
    expect((await run(['status'], { ...station.env, PACKDESK_URL: 'http://127.0.0.1:9' })).code).toBe(4);
    const ok = await run(['providers', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toHaveLength(15);
  });

  it('a flag value the daemon refuses is a usage error: exit 2, naming the query parameter', async () => {
    const perPage = await station.cli(['shipments', 'list', '--per-page', '1000']);
    expect(perPage.code).toBe(2);
    expect(perPage.stderr).toMatch(/^ {2}per_page: must be at most 100$/m);
    const status = await station.cli(['track', 'list', '--status', 'nope']);
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/^ {2}status: must be one of /m);
    // a body field the API refuses is the data, not the command line: still exit 1 (see channels add above)
  });

  it('with --json every error is the {message, errors} envelope on stderr, whatever went wrong', async () => {
    const unreachable = { ...station.env, PACKDESK_URL: 'http://127.0.0.1:9' };
    const cases: [string[], number, Record<string, unknown>?][] = [
      [['shipments', 'list', '--status', 'nope', '--json'], 2, { status: ['must be one of pending, created, shipped, delivered, cancelled, returned'] }],
      [['track', 'list', '--per-page', '1000', '--json'], 2, { per_page: ['must be at most 100'] }],
      [['frobnicate', '--json'], 2],
      [['shipments', 'list', '--bogus', '--json'], 2],
      [['track', 'add', '123', '--json'], 2],
      [['channels', 'update', 'ch_x', '--status', 'paused', '--json'], 2],
      [['channels', 'show', 'ch_doesnotexist', '--json'], 3],
      [['channels', 'add', '--provider', 'dhl', '--json'], 1],
    ];
    for (const [args, code, errors] of cases) {
      const result = await station.cli(args);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      const envelope = JSON.parse(result.stderr) as { message: string; errors: Record<string, string[]> };
      expect(Object.keys(envelope).sort()).toEqual(['errors', 'message']);
      expect(envelope.message.length, args.join(' ')).toBeGreaterThan(0);
      if (errors) expect(envelope.errors).toEqual(errors);
    }
    const added = JSON.parse((await station.cli(['channels', 'add', '--provider', 'dhl', '--json'])).stderr) as { errors: Record<string, string[]> };
    expect(Object.keys(added.errors)).toContain('settings.apiSecret');
    const gone = await station.cli(['status', '--json'], unreachable);
    expect(gone.code).toBe(4);
    expect(JSON.parse(gone.stderr)).toEqual({ message: expect.stringContaining('cannot reach the packdesk daemon at http://127.0.0.1:9'), errors: {} });
  });

  it('providers fits 100 columns; the long region lists wrap', async () => {
    const table = await station.cli(['providers']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(lines.filter((line) => line.startsWith('│ ') && !line.startsWith('│ code')).map((line) => line.split('│')[1]!.trim()).filter(Boolean))
      .toEqual(['ppl', 'dhl', 'dhl_pl', 'dpd', 'dpd_pl', 'gls', 'gls_pl', 'spx', 'mrw', 'poste_italiane', 'allegro', 'baselinker', 'onedelivery', 'packeta', 'inpost']);
    expect(table.stdout).toMatch(/│ ppl +│ PPL +│ CZ SK +│ pdf zpl epl │ yes │ ≤ 20 +│ yes +│/);
  });

  it('help says what a flag takes: --parcel KGxLxWxH, and no "(default: [])" on repeatable flags', async () => {
    const ship = await station.cli(['ship', '--help']);
    expect(ship.code).toBe(0);
    expect(ship.stdout).toContain('--parcel <KGxLxWxH>');
    expect(ship.stdout).toContain('--allow-duplicate-reference');
    for (const args of [['ship'], ['channels', 'add'], ['channels', 'update'], ['printers', 'add'], ['webhooks', 'add'], ['webhooks', 'update']]) {
      const help = await station.cli([...args, '--help']);
      expect(help.code, args.join(' ')).toBe(0);
      expect(help.stdout, args.join(' ')).not.toContain('default: []');
    }
  });
});
