import { Option, type Command } from 'commander';
import { PICKUP_POINT_TYPES } from '../carriers/types.js';
import type { PickupPoint } from './api-types.js';
import { ApiClient, daemonStation } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { printJson, printRecord, printTable } from './output.js';
import { action, parsePositiveInt } from './run.js';
import { addressLine } from './shipment-records.js';
import { fetchStation } from './station-settings.js';

const DAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

/** `Mo-Fr 08:00-18:00, Sa 08:00-12:00`: days in a row with the same intervals as one group; a day left out is closed. */
export function compactHours(hours: PickupPoint['opening_hours']): string {
  const byDay = DAYS.map((_, i) => hours.filter((h) => h.day === i + 1).map((h) => `${h.from}-${h.to}`).join(' '));
  const groups: string[] = [];
  for (let first = 0; first < DAYS.length;) {
    let last = first;
    while (last + 1 < DAYS.length && byDay[last + 1] === byDay[first]) last++;
    if (byDay[first]) groups.push(`${last > first ? `${DAYS[first]}-${DAYS[last]}` : DAYS[first]} ${byDay[first]}`);
    first = last + 1;
  }
  return groups.join(', ') || 'closed';
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** The flag of each query parameter of `points search` the API may name in a refusal. */
const SEARCH_FLAGS: Record<string, string> = {
  shipping_channel_id: '--channel', provider: '--provider', country: '--country', postal_code: '--postal-code', city: '--city', near: '--near', type: '--type', limit: '--limit',
};
const SHOW_FLAGS: Record<string, string> = { shipping_channel_id: '--channel', provider: 'PROVIDER' };

/**
 * The API's refusal of what the command line asked (an unknown channel, a provider without points, a search that needs
 * a channel) as a usage error naming the flags, whichever parameter the API found it on.
 */
async function refusalOfFlags<T>(flagOf: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const fields = Object.keys(err instanceof CliError ? err.details ?? {} : {});
    if (!(err instanceof CliError) || fields.length === 0 || !fields.every((f) => f in flagOf)) throw err;
    throw new CliError(err.message, EXIT.usage, err.details, `check ${[...new Set(fields.map((f) => flagOf[f]))].join(', ')}`);
  }
}

interface SearchFlags {
  channel?: string;
  provider?: string;
  country: string;
  postalCode?: string;
  city?: string;
  near?: string;
  type?: string;
  limit?: string;
  json?: boolean;
}

/** The channel to ask with: `--channel`, else the station's channel unless `--provider` names a carrier alone. */
async function searchChannel(client: ApiClient, o: SearchFlags): Promise<string | undefined> {
  if (o.channel !== undefined || o.provider !== undefined) return o.channel;
  const channel = (await fetchStation(client, await daemonStation(client))).effective.shipping_channel_id;
  if (!channel) throw new CliError('give --channel ch_… (or --provider CODE): this station has no default channel', EXIT.usage);
  return channel;
}

function searchQuery(o: SearchFlags, channel: string | undefined): URLSearchParams {
  const places = [o.postalCode !== undefined && '--postal-code', o.city !== undefined && '--city', o.near !== undefined && '--near'].filter(Boolean);
  if (places.length !== 1) throw new CliError(`give one of --postal-code, --city or --near${places.length ? `, not ${places.join(' and ')}` : ''}`, EXIT.usage);
  const query = new URLSearchParams({ country: o.country.toUpperCase() });
  const put = (key: string, value: string | undefined) => { if (value !== undefined) query.set(key, value); };
  put('shipping_channel_id', channel);
  put('provider', o.provider);
  put('postal_code', o.postalCode);
  put('city', o.city);
  put('near', o.near);
  put('type', o.type);
  if (o.limit !== undefined) put('limit', String(parsePositiveInt(o.limit, '--limit')));
  return query;
}

function printPoints(points: PickupPoint[]): void {
  printTable(
    ['id', 'name', 'type', 'address', 'hours', 'COD', 'open'],
    points.map((p) => [p.provider_point_id, p.name, p.type, addressLine(p.address), compactHours(p.opening_hours), yesNo(p.cash_on_delivery), yesNo(p.open)]),
  );
}

function printPoint(p: PickupPoint): void {
  printRecord({
    id: p.provider_point_id, provider: p.provider, name: p.name, type: p.type, address: addressLine(p.address),
    hours: compactHours(p.opening_hours), location: p.location ? `${p.location.lat}, ${p.location.lon}` : null,
    COD: yesNo(p.cash_on_delivery), open: p.open ? 'yes' : 'no: it takes no parcels now',
  });
}

const typeOption = () => new Option('--type <type>', 'only points of this type').choices(PICKUP_POINT_TYPES);

/** `packdesk points search …` and `packdesk points show PROVIDER ID`: a carrier's pickup points and lockers, to ship to with `ship --point`. */
export function registerPointCommands(program: Command): void {
  const points = program.command('points').description("pickup points and parcel lockers of the carriers: search, show (ship to one with `packdesk ship --point ID`)");

  points.command('search')
    .description("a carrier's points near a postal code, in a city or near coordinates")
    .option('--channel <id>', "ask with this channel's carrier and credentials (ch_…; default: the station's channel, unless --provider)")
    .option('--provider <code>', "the carrier's code (`packdesk providers`): asked through the account's channel of it")
    .requiredOption('--country <code>', 'country of the points, ISO 3166-1 alpha-2, e.g. CZ')
    .option('--postal-code <code>', 'points near this postal code')
    .option('--city <name>', 'points in this city')
    .option('--near <lat,lon>', 'points nearest to these coordinates, e.g. 50.0755,14.4378')
    .addOption(typeOption())
    .option('--limit <n>', 'at most this many points (1-100; default 20)')
    .option('--json', 'print the points as JSON')
    .action(action(async (o: SearchFlags) => {
      const client = ApiClient.fromConfig();
      const query = searchQuery(o, await searchChannel(client, o));
      const { body } = await refusalOfFlags(SEARCH_FLAGS, () => client.get<{ data: PickupPoint[] }>(`/v1/pickup-points?${query}`));
      if (o.json) printJson(body.data);
      else if (body.data.length === 0) process.stdout.write('no points found: try another postal code, --city or --near\n');
      else printPoints(body.data);
    }));

  points.command('show')
    .description('one point, as its carrier answers now (open, COD, hours)')
    .argument('<provider>', "the carrier's code, e.g. ppl")
    .argument('<id>', "the carrier's id of the point")
    .option('--channel <id>', "ask with this channel's credentials (ch_…), for a carrier whose point API needs them")
    .option('--json', 'print the point as JSON')
    .action(action(async (provider: string, id: string, o: { channel?: string; json?: boolean }) => {
      const query = o.channel !== undefined ? `?${new URLSearchParams({ shipping_channel_id: o.channel })}` : '';
      const path = `/v1/pickup-points/${encodeURIComponent(provider)}/${encodeURIComponent(id)}${query}`;
      const { body } = await refusalOfFlags(SHOW_FLAGS, () => ApiClient.fromConfig().get<{ data: PickupPoint }>(path));
      if (o.json) printJson(body.data);
      else printPoint(body.data);
    }));
}
