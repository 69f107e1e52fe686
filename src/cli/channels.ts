import type { Command } from 'commander';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect, isInteractive, printJson, printPageFooter, printRecord, printTable } from './output.js';
import type { Channel, Provider, ProviderSetting, SettingOption } from './api-types.js';
import { describeCancel } from './providers.js';
import { channelProduct, describeProduct, fetchProviders, productsOf, type Products } from './product-names.js';
import { registerAuthorizeCommand } from './channel-authorize.js';
import { action, listPath } from './run.js';
import { readJsonObject } from './ship-body.js';

type SettingValue = string | number | boolean;
type Settings = Record<string, SettingValue>;

/** `key=value` pairs from repeated `--setting` flags, values still text. */
function parseSettingFlags(flags: string[] = []): [string, string][] {
  return flags.map((flag, index) => {
    const eq = flag.indexOf('=');
    // the value may be a secret: never echo it back
    if (eq <= 0) throw new CliError(`--setting must be key=value (setting ${index + 1} has ${eq === 0 ? 'no key' : 'no "="'})`, EXIT.usage);
    return [flag.slice(0, eq).trim(), flag.slice(eq + 1)];
  });
}

/** Turns the text of a `--setting` into the type its schema declares; unknown keys stay text for the API to judge. */
function typedSetting(key: string, text: string, spec: ProviderSetting | undefined): SettingValue {
  switch (spec?.type) {
    case undefined:
    case 'string':
      return text;
    case 'boolean': {
      const lower = text.trim().toLowerCase();
      if (['true', 'yes', '1', 'on'].includes(lower)) return true;
      if (['false', 'no', '0', 'off'].includes(lower)) return false;
      throw new CliError(`--setting ${key} must be true or false`, EXIT.usage);
    }
    case 'integer': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isInteger(n)) throw new CliError(`--setting ${key} must be an integer`, EXIT.usage);
      return n;
    }
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw new CliError(`--setting ${key} must be a number`, EXIT.usage);
      return n;
    }
    default:
      throw new CliError(`--setting ${key} has a type this CLI does not know (${String((spec as ProviderSetting).type)})`, EXIT.usage);
  }
}

/** Settings from `--settings-json` then `--setting` flags (flags win), typed by the provider's schema when it is known. */
function settingsFromFlags(pairs: [string, string][], schema: ProviderSetting[] | undefined, fromFile: Settings = {}): Settings {
  const settings: Settings = { ...fromFile };
  for (const [key, text] of pairs) settings[key] = typedSetting(key, text, schema?.find((s) => s.key === key));
  return settings;
}

/** `key=value, …`, a product code with its name (`productType=PRIV — PPL Parcel CZ Private`). */
function describeSettings(settings: Channel['settings'], products: Products): string {
  return Object.entries(settings).map(([k, v]) => `${k}=${k === products.settingKey ? describeProduct(String(v), products) : String(v)}`).join(', ');
}

async function printChannel(client: ApiClient, channel: Channel): Promise<void> {
  const products = await productsOf(client, channel.provider);
  printRecord({
    id: channel.id, name: channel.name, provider: channel.provider, status: channel.status,
    description: channel.description, settings: describeSettings(channel.settings, products),
    ...(products.settingKey ? { product: channelProduct(channel.settings, products) } : {}), cancel: describeCancel(channel.capabilities),
    'last validated': channel.last_validated_at ?? 'never',
    ...(channel.validation_error ? { 'validation error': channel.validation_error.message } : {}),
    created: channel.created_at, updated: channel.updated_at,
  });
  for (const [field, messages] of Object.entries(channel.validation_error?.errors ?? {})) {
    process.stdout.write(`  ${field}: ${messages.join('; ')}\n`);
  }
  if (channel.status === 'authorization_required') process.stdout.write(`next: packdesk channels authorize ${channel.id}\n`);
}

/**
 * What checking a channel with its carrier came to, after it was shown: refused → exit 1 with the carrier's reason;
 * carrier not reached → the channel is kept as pending_validation, and people are told so.
 */
function reportValidation(channel: Channel, json: boolean | undefined): void {
  if (channel.status === 'error') {
    throw new CliError(
      `the carrier refused the channel's settings: ${channel.validation_error?.message ?? 'no reason given'}`, EXIT.failure,
      // people read the fields in the channel shown above; scripts get them in the error envelope
      json ? channel.validation_error?.errors : undefined, `hint: correct them with \`packdesk channels update ${channel.id} --setting key=value\``,
    );
  }
  if (channel.status === 'pending_validation' && !json) {
    process.stdout.write(`The carrier could not be reached, so the settings are not checked yet: ${channel.id} is saved as pending_validation.\n`
      + `Check it once the carrier answers: packdesk channels validate ${channel.id}\n`);
  }
}

/** The values the carrier lists for a setting; on failure the user types the value (and learns why). */
async function listedOptions(client: ApiClient, provider: string, key: string, settings: Settings): Promise<{ value: string; name: string }[] | undefined> {
  try {
    const { body } = await client.post<{ data: SettingOption[] }>(
      `/v1/providers/${encodeURIComponent(provider)}/setting-options`, { key, settings },
    );
    return body.data.map((o) => ({ value: o.value, name: `${o.name} (${o.value})` }));
  } catch (err) {
    process.stderr.write(`could not list ${key} values: ${(err as Error).message}\n`);
    return undefined;
  }
}

const channelPath = (id: string) => `/v1/shipping-channels/${encodeURIComponent(id)}`;

/** Asks for what `channels add` still lacks: provider, name, then each setting not given (optional ones may be left empty). */
async function promptForChannel(client: ApiClient, providers: Provider[], given: { name?: string; provider?: string; settings: Settings }) {
  const { confirm, input, password, select } = await import('@inquirer/prompts');
  const providerCode = given.provider ?? await select({
    message: 'Provider',
    choices: providers.map((p) => ({ value: p.code, name: `${p.name} (${p.code})`, description: p.regions.join(', ') })),
  });
  const provider = providers.find((p) => p.code === providerCode);
  const name = given.name ?? await input({ message: 'Channel name', required: true });
  const settings: Settings = { ...given.settings };
  for (const spec of provider?.settings ?? []) {
    if (settings[spec.key] !== undefined) continue;
    const label = `${spec.key}${spec.required ? '' : ' (optional)'} — ${spec.description}`;
    if (spec.type === 'boolean') {
      const fallback = spec.default === true;
      const answer = await confirm({ message: label, default: fallback });
      if (spec.required || answer !== fallback) settings[spec.key] = answer;
      continue;
    }
    const options = spec.enum?.map((v) => ({ value: v, name: v })) ?? (spec.listed ? await listedOptions(client, providerCode, spec.key, settings) : undefined);
    if (options && options.length > 0) {
      const skip = '';
      const choices = [...(spec.required ? [] : [{ value: skip, name: '(leave unset)' }]), ...options];
      const answer = await select({ message: label, choices, default: typeof spec.default === 'string' ? spec.default : undefined });
      if (answer !== skip) settings[spec.key] = typedSetting(spec.key, answer, spec);
      continue;
    }
    const withDefault = spec.default !== undefined ? `${label} [default ${String(spec.default)}]` : label;
    const validate = (text: string) => {
      if (text === '') return spec.required ? 'required' : true;
      try {
        typedSetting(spec.key, text, spec);
        return true;
      } catch (err) {
        return (err as Error).message;
      }
    };
    const answer = spec.secret
      ? await password({ message: withDefault, mask: true, validate })
      : await input({ message: withDefault, validate });
    if (answer !== '') settings[spec.key] = typedSetting(spec.key, answer, spec);
  }
  return { name, provider: providerCode, settings };
}

interface AddOptions {
  name?: string;
  provider?: string;
  setting?: string[];
  settingsJson?: string;
  description?: string;
  json?: boolean;
}

interface UpdateOptions {
  name?: string;
  description?: string;
  setting?: string[];
  settingsJson?: string;
  status?: string;
  priceListJson?: string;
  json?: boolean;
}

/** `packdesk channels …`: shipping channels (carrier connections) over the daemon's API. */
export function registerChannelCommands(program: Command): void {
  const channels = program.command('channels').description('shipping channels: connections to carriers');

  channels.command('add')
    .description('create a shipping channel (interactive on a terminal when something is missing)')
    .option('--name <name>', 'channel name, unique in the account')
    .option('--provider <code>', 'provider code (see `packdesk providers`)')
    .option('--setting <key=value>', 'a provider setting; repeat for each', collect)
    .option('--settings-json <file>', 'a JSON object of provider settings')
    .option('--description <text>', 'free text')
    .option('--json', 'print JSON')
    .action(action(async (o: AddOptions) => {
      const client = ApiClient.fromConfig();
      const pairs = parseSettingFlags(o.setting);
      const fromFile = o.settingsJson ? readJsonObject(o.settingsJson, '--settings-json') as Settings : {};
      const providers = pairs.length > 0 || isInteractive(o.json) ? await fetchProviders(client) : [];
      const schemaOf = (code?: string) => providers.find((p) => p.code === code)?.settings;
      let body = { name: o.name, provider: o.provider, settings: settingsFromFlags(pairs, schemaOf(o.provider), fromFile) };
      const requiredMissing = (schemaOf(body.provider) ?? []).some((s) => s.required && body.settings[s.key] === undefined);
      if (isInteractive(o.json) && (!body.name || !body.provider || requiredMissing)) {
        body = await promptForChannel(client, providers, body);
      }
      const { body: created } = await client.post<{ data: Channel }>('/v1/shipping-channels', {
        ...body, ...(o.description !== undefined ? { description: o.description } : {}),
      });
      if (o.json) printJson(created.data);
      else await printChannel(client, created.data);
      reportValidation(created.data, o.json);
    }));

  channels.command('list')
    .description('list shipping channels, newest first')
    .option('--provider <code>', 'only this provider')
    .option('--status <status>', 'only this status (pending_validation, authorization_required, active, error, inactive)')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'channels per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: { provider?: string; status?: string; page?: string; perPage?: string; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<Page<Channel>>(listPath('/v1/shipping-channels', { provider: o.provider, status: o.status }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'name', 'provider', 'status', 'last validated'],
        body.data.map((c) => [c.id, c.name, c.provider, c.status, c.last_validated_at ?? 'never']),
      );
      printPageFooter(body.meta);
    }));

  channels.command('show')
    .description('show one shipping channel (secret settings masked)')
    .argument('<id>', 'channel id (ch_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const { body } = await client.get<{ data: Channel }>(channelPath(id));
      if (o.json) printJson(body.data);
      else await printChannel(client, body.data);
    }));

  channels.command('update')
    .description('change a channel; changed settings are validated again')
    .argument('<id>', 'channel id (ch_…)')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--setting <key=value>', 'a provider setting to change; repeat for each', collect)
    .option('--settings-json <file>', 'a JSON object of provider settings to change')
    .option('--status <status>', 'active | inactive')
    .option('--price-list-json <file>', "the channel's own price list as JSON ({currency, zones, bands, cod, fuel_percent, extra_parcel, valid_from}; - for stdin): it prices the shipments the carrier answers no price for")
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: UpdateOptions) => {
      if (o.status !== undefined && o.status !== 'active' && o.status !== 'inactive') {
        throw new CliError('--status must be active or inactive', EXIT.usage);
      }
      const pairs = parseSettingFlags(o.setting);
      const fromFile = o.settingsJson ? readJsonObject(o.settingsJson, '--settings-json') as Settings : undefined;
      const priceList = o.priceListJson === undefined ? undefined : readJsonObject(o.priceListJson, '--price-list-json');
      if (o.name === undefined && o.description === undefined && o.status === undefined && pairs.length === 0 && !fromFile && priceList === undefined) {
        throw new CliError('nothing to update: give --name, --description, --setting, --settings-json, --status or --price-list-json', EXIT.usage);
      }
      const client = ApiClient.fromConfig();
      let settings: Settings | undefined;
      if (pairs.length > 0) {
        const { body: current } = await client.get<{ data: Channel }>(channelPath(id));
        const provider = (await fetchProviders(client)).find((p) => p.code === current.data.provider);
        settings = settingsFromFlags(pairs, provider?.settings, fromFile);
      } else if (fromFile) {
        settings = fromFile;
      }
      const { body } = await client.patch<{ data: Channel }>(channelPath(id), {
        ...(o.name !== undefined ? { name: o.name } : {}),
        ...(o.description !== undefined ? { description: o.description } : {}),
        ...(o.status !== undefined ? { status: o.status } : {}),
        ...(settings ? { settings } : {}),
        ...(priceList !== undefined ? { price_list: priceList } : {}),
      });
      if (o.json) printJson(body.data);
      else await printChannel(client, body.data);
      // only changed settings, or asking to be active again, had the carrier check the channel
      if (settings || o.status === 'active') reportValidation(body.data, o.json);
    }));

  channels.command('validate')
    .description("check the channel's credentials with the carrier (exit 1 when they are refused)")
    .argument('<id>', 'channel id (ch_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const { body } = await client.post<{ data: Channel }>(`${channelPath(id)}/validate`);
      if (o.json) printJson(body.data);
      else await printChannel(client, body.data);
      reportValidation(body.data, o.json);
    }));

  registerAuthorizeCommand(channels);

  channels.command('remove')
    .description('delete a shipping channel')
    .argument('<id>', 'channel id (ch_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().delete<{ message: string }>(channelPath(id));
      if (o.json) printJson({ id, message: body.message });
      else process.stdout.write(`removed ${id}\n`);
    }));
}
