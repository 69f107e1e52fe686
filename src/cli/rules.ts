import { Option, type Command } from 'commander';
import { actionChannels, RULE_ACTION_TYPES, type RuleAction as DomainRuleAction } from '../domain/shipping-rules.js';
import type { DataOf } from './api-types.js';
import { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect, formatMoney, printJson, printRecord, printTable } from './output.js';
import { addShipmentQuestionFlags, shipmentQuestionBody, type ShipmentQuestionFlags } from './rates.js';
import { action, parsePositiveInt } from './run.js';
import { readJsonObject } from './ship-body.js';

export type ShippingRule = DataOf<'/v1/shipping-rules', 'get'>[number];
type Conditions = ShippingRule['conditions'];
type RuleAction = ShippingRule['action'];
type RulesTrial = DataOf<'/v1/shipping-rules/test', 'post'>;
type Range = { min?: number | null; max?: number | null };

const rulePath = (id: string) => `/v1/shipping-rules/${encodeURIComponent(id)}`;

/** `20 kg or more`, `up to 5 kg`, `1–5 kg`. */
function rangeWords(range: Range, unit = ''): string {
  const { min, max } = range;
  if (min != null && max != null) return `${min}–${max}${unit}`;
  return min != null ? `${min}${unit} or more` : `up to ${max}${unit}`;
}

/** Each condition of a rule as people say it; a rule without conditions holds for every shipment. */
export function conditionWords(c: Conditions): string[] {
  const words: string[] = [];
  if (c.destination_countries) words.push(`to ${c.destination_countries.join(', ')}`);
  if (c.destination_postal_code_prefixes) words.push(`postal code ${c.destination_postal_code_prefixes.map((p) => `${p}…`).join(', ')}`);
  if (c.weight_kg) words.push(`weight ${rangeWords(c.weight_kg, ' kg')}`);
  if (c.parcel_count) words.push(`parcels ${rangeWords(c.parcel_count)}`);
  if (c.longest_side_cm) words.push(`longest side ${rangeWords(c.longest_side_cm, ' cm')}`);
  if (c.cash_on_delivery != null) words.push(c.cash_on_delivery ? 'with COD' : 'without COD');
  if (c.cash_on_delivery_amount) words.push(`COD ${rangeWords(c.cash_on_delivery_amount)}`);
  if (c.order_value) words.push(`order value ${rangeWords(c.order_value)}`);
  if (c.pickup_point != null) words.push(c.pickup_point ? 'to a pickup point' : 'to a door');
  if (c.reference_pattern) words.push(`reference ${c.reference_pattern}`);
  for (const [key, pattern] of Object.entries(c.metadata ?? {})) words.push(`${key} ${pattern}`);
  if (c.import_folder_ids) words.push(`from folder ${c.import_folder_ids.join(', ')}`);
  return words.length ? words : ['every shipment (default)'];
}

/** The names of the channels rules name, by id; a channel the daemon no longer knows keeps its id alone. */
async function channelNames(client: ApiClient, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const named = await Promise.all(unique.map(async (id) => {
    try {
      return [id, (await client.get<{ data: { name: string } }>(`/v1/shipping-channels/${encodeURIComponent(id)}`)).body.data.name] as const;
    } catch {
      return [id, id] as const; // deleted, or another account's: the id says what is known
    }
  }));
  return new Map(named);
}

const channelsOf = (a: RuleAction): string[] => actionChannels(a as DomainRuleAction);

/** `use PPL home`, `cheapest of PPL a, DPD`. */
export function actionWords(a: RuleAction, names: Map<string, string>): string {
  const named = channelsOf(a).map((id) => (names.get(id) ?? id) === id ? id : `${names.get(id)} (${id})`);
  return a.type === 'use_channel' ? `use ${named[0]}` : `${a.type} of ${named.join(', ')}`;
}

async function printRule(client: ApiClient, rule: ShippingRule): Promise<void> {
  const names = await channelNames(client, channelsOf(rule.action));
  printRecord({
    id: rule.id, position: rule.position, name: rule.name, active: rule.active ? 'yes' : 'no',
    when: conditionWords(rule.conditions).join('; '), then: actionWords(rule.action, names),
  });
}

function parseNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(',', '.'));
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new CliError(`${flag} must be a number of 0 or more, not "${value}"`, EXIT.usage);
  return n;
}

interface AddFlags {
  name: string;
  action: RuleAction['type'];
  channel?: string[];
  position?: string;
  country?: string[];
  postalPrefix?: string[];
  minWeight?: string;
  maxWeight?: string;
  cod?: boolean;
  reference?: string;
  point?: boolean;
  conditionsJson?: string;
  inactive?: boolean;
  json?: boolean;
}

/** The conditions of `--conditions-json` with every condition flag laid over it. */
export function conditionsFromFlags(o: AddFlags): Conditions {
  const c = (o.conditionsJson ? readJsonObject(o.conditionsJson, '--conditions-json') : {}) as Conditions;
  if (o.country?.length) c.destination_countries = o.country.map((code) => code.toUpperCase());
  if (o.postalPrefix?.length) c.destination_postal_code_prefixes = o.postalPrefix;
  const min = parseNumber(o.minWeight, '--min-weight');
  const max = parseNumber(o.maxWeight, '--max-weight');
  if (min !== undefined || max !== undefined) c.weight_kg = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  if (o.cod !== undefined) c.cash_on_delivery = o.cod;
  if (o.reference !== undefined) c.reference_pattern = o.reference;
  if (o.point !== undefined) c.pickup_point = o.point;
  return c;
}

/** The action of `--action` and its `--channel`s: one channel to use, or those to choose the cheapest or fastest of. */
export function actionFromFlags(o: Pick<AddFlags, 'action' | 'channel'>): RuleAction {
  const channels = o.channel ?? [];
  if (o.action === 'use_channel') {
    if (channels.length !== 1) throw new CliError(`--action use_channel takes one --channel, not ${channels.length}`, EXIT.usage);
    return { type: 'use_channel', shipping_channel_id: channels[0]! };
  }
  if (channels.length === 0) throw new CliError(`--action ${o.action} takes the channels to choose from: --channel ch_… for each`, EXIT.usage);
  return { type: o.action, shipping_channel_ids: channels };
}

async function changeRule(id: string, change: Partial<Pick<ShippingRule, 'position' | 'active'>>, json: boolean | undefined): Promise<void> {
  const client = ApiClient.fromConfig();
  const { body } = await client.patch<{ data: ShippingRule }>(rulePath(id), change);
  if (json) printJson(body.data);
  else await printRule(client, body.data);
}

/** What `rules test` found: each rule tried and why, then the channel and what chose it. */
function printTrial(trial: RulesTrial, names: Map<string, string>): void {
  printTable(['#', 'RULE', 'CHOSE', 'WHY'], trial.rules.map((r) => [r.position, r.name, r.chose ? 'yes' : 'no', r.reason]));
  for (const q of trial.quotes ?? []) {
    const price = q.price === null ? (q.cannot ?? '—') : formatMoney(q.price, q.currency);
    process.stdout.write(`  quote ${q.name} (${q.shipping_channel_id}): ${price}${q.transit_days === null ? '' : `, ${q.transit_days} d`}\n`);
  }
  const channel = trial.shipping_channel_id;
  const shown = channel ? (names.get(channel) === channel ? channel : `${names.get(channel)} (${channel})`) : null;
  if (!shown) process.stdout.write('channel: none; no rule chooses one and the station names none, so a creation would be refused\n');
  else if (trial.chosen_by) process.stdout.write(`channel: ${shown}, chosen by rule ${trial.chosen_by.name}: ${trial.chosen_by.reason}\n`);
  else process.stdout.write(`channel: ${shown}, the station's (no rule chose)\n`);
}

/** `packdesk rules`: the account's shipping rules, which choose the channel of a shipment or order that names none. */
export function registerRuleCommands(program: Command): void {
  const rules = program.command('rules').description('shipping rules: in order, they choose the channel of a shipment or order that names none');

  rules.command('list')
    .description('the rules in the order they are tried: conditions and action in words')
    .option('--json', 'print JSON')
    .action(action(async (o: { json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const { body } = await client.get<{ data: ShippingRule[] }>('/v1/shipping-rules');
      if (o.json) return printJson(body.data);
      const names = await channelNames(client, body.data.flatMap((r) => channelsOf(r.action)));
      printTable(['#', 'ID', 'NAME', 'ACTIVE', 'WHEN', 'THEN'], body.data.map((r) => [
        r.position, r.id, r.name, r.active ? 'yes' : 'no', conditionWords(r.conditions).join('; '), actionWords(r.action, names),
      ]));
    }));

  rules.command('add')
    .description('add a rule: last, or at --position (the rules from there on move down one)')
    .requiredOption('--name <name>', 'what the rule is for, e.g. "Heavy parcels"')
    .addOption(new Option('--action <type>', 'use_channel: ship with --channel; cheapest or fastest: of the --channels, by their quotes').choices(RULE_ACTION_TYPES).makeOptionMandatory())
    .option('--channel <id>', 'the channel to use, or one to choose from (ch_…); repeat for each', collect)
    .option('--position <n>', '1 is tried first (default: last)')
    .option('--country <code>', 'destination country, ISO 3166-1 alpha-2; repeat for each', collect)
    .option('--postal-prefix <prefix>', 'destination postal codes starting with this; repeat for each', collect)
    .option('--min-weight <kg>', 'the parcels together weigh at least this')
    .option('--max-weight <kg>', 'the parcels together weigh at most this')
    .option('--cod', 'with cash on delivery only')
    .option('--no-cod', 'without cash on delivery only')
    .option('--reference <pattern>', 'the reference matches this: * any run of characters, ? one (e.g. EXP-*)')
    .option('--point', 'to a pickup point or locker only')
    .option('--no-point', 'to a door only')
    .option('--conditions-json <file>', 'conditions as JSON (- for stdin), for those without a flag; the flags above override its fields')
    .option('--inactive', 'keep the rule, but skip it until enabled')
    .option('--json', 'print JSON')
    .action(action(async (o: AddFlags) => {
      const body = {
        name: o.name,
        conditions: conditionsFromFlags(o),
        action: actionFromFlags(o),
        ...(o.position !== undefined ? { position: parsePositiveInt(o.position, '--position') } : {}),
        ...(o.inactive ? { active: false } : {}),
      };
      const client = ApiClient.fromConfig();
      const { body: created } = await client.post<{ data: ShippingRule }>('/v1/shipping-rules', body);
      if (o.json) printJson(created.data);
      else await printRule(client, created.data);
    }));

  rules.command('move')
    .description('move a rule to another place in the order (the rules between move by one)')
    .argument('<id>', 'rule id (rule_…)')
    .requiredOption('--position <n>', '1 is tried first')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { position: string; json?: boolean }) => changeRule(id, { position: parsePositiveInt(o.position, '--position') }, o.json)));

  rules.command('enable')
    .description('try the rule again')
    .argument('<id>', 'rule id (rule_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => changeRule(id, { active: true }, o.json)));

  rules.command('disable')
    .description('keep the rule, but skip it')
    .argument('<id>', 'rule id (rule_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => changeRule(id, { active: false }, o.json)));

  rules.command('delete')
    .description('delete a rule (the rules after it move up one; shipments it chose keep saying so)')
    .argument('<id>', 'rule id (rule_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      await ApiClient.fromConfig().delete(rulePath(id));
      if (o.json) printJson({ id, deleted: true });
      else process.stdout.write(`deleted ${id}\n`);
    }));

  addShipmentQuestionFlags(rules.command('test')
    .description('what the rules would do with a shipment (nothing is created): each rule tried and why, and the channel chosen')
    .option('--reference <ref>', 'the order reference, for rules on reference patterns')
    .option('--import-folder <id>', "try it as an order from this watched folder's files (wf_…)"))
    .option('--json', 'print JSON')
    .action(action(async (o: ShipmentQuestionFlags & { importFolder?: string }) => {
      const client = ApiClient.fromConfig();
      const { importFolder, ...flags } = o;
      const body = await shipmentQuestionBody(client, flags);
      if (importFolder !== undefined) body.import_folder_id = importFolder;
      const { body: answer } = await client.post<{ data: RulesTrial }>('/v1/shipping-rules/test', body);
      if (o.json) return printJson(answer.data);
      const names = await channelNames(client, answer.data.shipping_channel_id ? [answer.data.shipping_channel_id] : []);
      printTrial(answer.data, names);
    }));
}
