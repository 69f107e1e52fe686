import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import pino from 'pino';
import type { DemoStory } from '../src/carriers/types.js';
import { CliError, EXIT } from '../src/cli/exit-codes.js';
import { isLabelFormat, LABEL_FORMATS, type LabelFormat } from '../src/domain/labels.js';
import { action } from '../src/cli/run.js';
import { singleExecutable } from '../src/runtime/shipped.js';
import { shellQuote } from '../src/cli/shell-quote.js';

interface DemoOptions {
  provider: string;
  format: string;
  dataDir?: string;
  out?: string;
  keepRunning?: boolean;
}

const say = (line = '') => process.stdout.write(`${line}\n`);

/** The demo shipment: two parcels with cash on delivery, between the addresses the provider's demo story names. */
function demoShipment(channelId: string, story: DemoStory, labelFormat: LabelFormat) {
  return {
    shipping_channel_id: channelId,
    label_format: labelFormat,
    reference_number: 'DEMO-1001',
    ...story.shipment,
    parcels: [
      { weight_amount: 2.4, length_dimension: 40, width_dimension: 30, height_dimension: 20 },
      { weight_amount: 0.8, length_dimension: 25, width_dimension: 20, height_dimension: 10 },
    ],
    cash_on_delivery_amount: DEMO_COD,
  };
}

const DEMO_COD = 1249.9;

async function call<T>(url: string, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: T; raw: Buffer; headers: Headers }> {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const raw = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(raw.toString()) : undefined;
  if (!res.ok) throw new CliError(`${method} ${path} answered ${res.status}: ${raw.toString().slice(0, 300)}`, EXIT.failure);
  return { status: res.status, json: json as T, raw, headers: res.headers };
}

/** The device flow of a carrier that acts for a person: the emulator's control endpoint approves like the person would. */
async function authorizeInEmulator(daemonUrl: string, apiKey: string, emulatorUrl: string, code: string, channelId: string): Promise<void> {
  const path = `/v1/shipping-channels/${channelId}`;
  const started = await call<{ data: { user_code: string; verification_uri: string } }>(daemonUrl, apiKey, 'POST', `${path}/authorize`);
  const { user_code: userCode, verification_uri: uri } = started.json.data;
  say(`   The carrier acts for a person: \`packdesk channels authorize ${channelId}\` asks them to open ${uri} and enter ${userCode}.`);
  const approved = await fetch(`${emulatorUrl}/_emulator/${code}/device/${encodeURIComponent(userCode)}/approve`, { method: 'POST' });
  if (!approved.ok) throw new CliError(`the emulator did not approve ${userCode}: ${approved.status}`, EXIT.failure);
  for (let waited = 0; waited < 30_000; waited += 500) {
    const channel = await call<{ data: { status: string } }>(daemonUrl, apiKey, 'GET', path);
    if (channel.json.data.status !== 'authorization_required') {
      say(`   The emulator approved it as the person would; the daemon polled the carrier and stored the tokens: ${channel.json.data.status}`);
      return;
    }
    await sleep(500);
  }
  throw new CliError('the channel was not authorised within 30 s', EXIT.failure);
}

/** What the demo made, for the commands it suggests. */
interface DemoRun {
  daemonUrl: string;
  apiKey: string;
  emulatorUrl: string;
  provider: string;
  shipmentId: string;
  trackingNumber: string;
  trackingParcelId: string | undefined;
}

/** The packdesk checkout or installation this runs from (`npx packdesk` finds its command there). */
function packageDir(): string {
  for (const rel of ['..', '../..']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'packdesk') return dir;
    } catch {
      // try the next location
    }
  }
  return process.cwd();
}


/** How a person runs packdesk again: the single executable by its path, else npx in the checkout. */
const packdeskCommand = (): string => (singleExecutable() ? shellQuote(process.execPath) : 'npx packdesk');

/** Commands that work as printed in a new terminal while `demo --keep-running` runs. */
function tryNextWhileRunning(run: DemoRun): string[] {
  const packdesk = packdeskCommand();
  return [
    ...(singleExecutable() ? [] : [`cd ${shellQuote(packageDir().replace(/\/+$/, ''))}`]),
    `export PACKDESK_URL=${run.daemonUrl} PACKDESK_API_KEY=${run.apiKey}`,
    `${packdesk} shipments show ${run.shipmentId}`,
    `curl -s -X POST ${run.emulatorUrl}/_emulator/${run.provider}/parcels/${run.trackingNumber}/advance -H 'Content-Type: application/json' -d '{"to":"in_transit"}'`,
    run.trackingParcelId
      ? `${packdesk} track refresh ${run.trackingParcelId}   # the carrier now says in transit`
      : `${packdesk} track list --search ${run.trackingNumber}`,
    `${packdesk} shipments show ${run.shipmentId}   # shipped`,
    `curl -s ${run.daemonUrl}/v1/shipments -H "Authorization: Bearer $PACKDESK_API_KEY"`,
  ];
}

/** `packdesk demo`: a carrier's emulator + a daemon on a fresh data directory, a channel, a two-parcel COD shipment, its label. */
export function registerDemoCommand(program: Command): void {
  program.command('demo')
    .description('run a complete shipment against a carrier\'s local emulator and write its merged label')
    .option('--provider <code>', 'the carrier whose emulator takes the shipment (any provider)', 'ppl')
    .option('--format <format>', 'label format: pdf, zpl or epl (converted offline where the carrier lacks it)', 'pdf')
    .option('--data-dir <dir>', 'data directory for the demo (default: a fresh temporary directory, removed when the demo stops)')
    .option('--out <file>', 'where to write the merged label (default: packdesk-demo-label.<format>)')
    .option('--keep-running', 'leave the daemon and the emulator running afterwards, and print commands to try against them (Ctrl-C stops them)')
    .action(action(async (o: DemoOptions) => {
      // loaded here so other commands don't pay for the carriers, the daemon and the emulators at start-up
      const { carrierLabelFormat, listProviders } = await import('../src/carriers/registry.js');
      const provider = listProviders().find((p) => p.code === o.provider);
      if (!provider) throw new CliError(`--provider must be one of ${listProviders().map((p) => p.code).join(', ')}`, EXIT.usage);
      const story = provider.demo;
      if (!isLabelFormat(o.format)) throw new CliError(`--format must be one of ${LABEL_FORMATS.join(', ')}`, EXIT.usage);
      const format = o.format;
      const currency = String(story.shipment.cash_on_delivery_currency);
      const [{ startEmulators }, { createAccount, createApiKey }, { closeContext, openContext }, { startDaemon }] = await Promise.all([
        import('../src/carriers/emulator/server.js'), import('../src/services/accounts.js'), import('../src/services/open.js'), import('./main.js'),
      ]);
      const temporary = o.dataDir === undefined;
      const dataDir = resolve(o.dataDir ?? mkdtempSync(join(tmpdir(), 'packdesk-demo-')));
      // the temporary directory holds secret.key and the demo's API key: it goes when the demo ends, however it ends
      const removeDataDir = () => {
        if (temporary) rmSync(dataDir, { recursive: true, force: true });
      };
      let stopKeptRunning: (() => void) | undefined;
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopKeptRunning) return stopKeptRunning();
        removeDataDir();
        process.exit(signal === 'SIGINT' ? 130 : 143);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const quiet = pino({ level: 'warn' });
      let emulators: Awaited<ReturnType<typeof startEmulators>> | undefined;
      let daemon: Awaited<ReturnType<typeof startDaemon>> | undefined;
      try {
        emulators = await startEmulators({ providers: [provider.code], port: 0 });
        const emulatorUrl = emulators.urls[provider.code]!;
        say(`1. Started the ${provider.name} carrier emulator at ${emulatorUrl}`);
        const setup = openContext({ dataDir, log: quiet });
        const account = await createAccount(setup, { name: 'Demo warehouse', plan: 'enterprise' });
        const { apiKey } = await createApiKey(setup, { accountId: account.id, name: 'demo' });
        await closeContext(setup);
        say(`2. Created account ${account.id} and an API key in ${dataDir}${temporary ? ' (temporary: removed when the demo stops)' : ''}`);
        daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0, log: quiet });
        say(`3. Started the packdesk daemon at ${daemon.url}`);
        const channel = await call<{ data: { id: string; status: string } }>(daemon.url, apiKey, 'POST', '/v1/shipping-channels', {
          name: `${provider.name} (emulator)`, provider: provider.code, settings: { ...story.settings, baseUrl: emulatorUrl },
        });
        say(`4. Added ${provider.name} channel ${channel.json.data.id}: ${channel.json.data.status}`);
        if (channel.json.data.status === 'authorization_required') {
          await authorizeInEmulator(daemon.url, apiKey, emulators.url, provider.code, channel.json.data.id);
        }
        const created = await call<{ data: { id: string; status: string; product: string; parcels: { tracking_number: string }[]; failure: unknown } }>(
          daemon.url, apiKey, 'POST', '/v1/shipments', demoShipment(channel.json.data.id, story, format), { prefer: 'wait=30' },
        );
        const s = created.json.data;
        if (s.status !== 'created') throw new CliError(`the demo shipment is ${s.status}: ${JSON.stringify(s.failure)}`, EXIT.failure);
        say(`5. Created shipment ${s.id} (2 parcels, COD ${DEMO_COD.toFixed(2)} ${currency}) → ${s.status}, ${provider.name} product ${s.product}`);
        for (const [i, p] of s.parcels.entries()) say(`     parcel ${i + 1}: tracking number ${p.tracking_number}`);
        const label = await call(daemon.url, apiKey, 'GET', `/v1/shipments/${s.id}/label?download=1`);
        const out = resolve(o.out ?? `packdesk-demo-label.${format}`);
        writeFileSync(out, label.raw);
        const source = provider.capabilities.nativeLabelFormats.includes(format) ? 'the carrier\'s own' : `converted offline from the carrier's ${carrierLabelFormat(provider.capabilities, format).toUpperCase()}`;
        say(`6. Wrote the merged ${format.toUpperCase()} label to ${out} (${source}, one ${format === 'pdf' ? 'page' : 'label'} per parcel, ${label.raw.length} bytes)`);
        say();
        if (!o.keepRunning) {
          const other = provider.code === 'ppl' ? 'dhl' : 'ppl';
          say('Try next:');
          say(`  ${packdeskCommand()} demo --keep-running   # the same, left running, with commands to try against it`);
          say(`  ${packdeskCommand()} demo --provider ${other} --format zpl   # another carrier's emulator, ZPL labels`);
          say(`\nThe demo daemon stops now${temporary ? ` and ${dataDir} is removed` : ''}; the label stays in ${out}.`);
          return;
        }
        const trackingNumber = s.parcels[0]!.tracking_number;
        const tracked = await call<{ data: { id: string }[] }>(daemon.url, apiKey, 'GET', `/v1/tracking-parcels?search=${encodeURIComponent(trackingNumber)}`);
        const run: DemoRun = {
          daemonUrl: daemon.url, apiKey, emulatorUrl: emulators.url, provider: provider.code, shipmentId: s.id, trackingNumber,
          trackingParcelId: tracked.json.data[0]?.id,
        };
        const desk = await call<{ data: { url: string } }>(daemon.url, apiKey, 'POST', '/v1/desk/login-links');
        say(`The packing desk, signed in (the link works once, for 5 minutes): ${desk.json.data.url}`);
        say('Try next, in another terminal:');
        for (const line of tryNextWhileRunning(run)) say(`  ${line}`);
        say(`API reference: ${daemon.url}/docs`);
        say(`\nThe daemon and the emulator keep running; Ctrl-C stops them${temporary ? ` and removes ${dataDir}` : ''}.`);
        await new Promise<void>((done) => { stopKeptRunning = done; });
      } finally {
        await daemon?.close();
        await emulators?.close();
        removeDataDir();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    }));
}
