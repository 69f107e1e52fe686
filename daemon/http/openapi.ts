import type { FastifySchema } from 'fastify';
import type { SwaggerTransform } from '@fastify/swagger';

/** How the OpenAPI document presents the routes: tags, operationIds, and request defaults a client may leave out. */

/** The tags operations are grouped by, in the order the reference shows them. */
export const API_TAGS = [
  { name: 'Discovery', description: 'Health of the daemon, its store and workers (no API key needed)' },
  { name: 'Account', description: "The caller's account, plan and rate limit" },
  { name: 'Stations', description: 'The daemons working on the store (several share a PostgreSQL store), the stations they serve, and each station\'s settings: sender, channel, label format, printers, auto-print, boxes' },
  { name: 'Providers', description: 'The carriers packdesk ships with: their capabilities and the settings a channel needs' },
  { name: 'Shipping channels', description: 'A carrier account (provider and credentials) that shipments are created through' },
  { name: 'Shipments', description: 'Shipments created at the carrier in the background, their merged labels, cancelling and printing' },
  { name: 'Orders', description: 'The order queue: orders that wait for the packer, who ships each one as a shipment' },
  { name: 'Dispatches', description: "End of the day: a channel's created shipments handed over to the carrier (its close, protocol and courier), with the hand-over document" },
  { name: 'Pickup points', description: "The carriers' pickup points and parcel lockers: search them, check one; a shipment's pickup_point delivers there" },
  { name: 'Tracking parcels', description: 'Parcels tracked by carrier tracking number, with their status updates' },
  { name: 'Webhook subscriptions', description: 'Signed event deliveries to your URLs, with a log of every delivery' },
  { name: 'Printers', description: 'Thermal (ZPL, EPL) and IPP printers that labels are printed on' },
  { name: 'Print jobs', description: 'Labels queued for a printer, and how printing went' },
  { name: 'Shipping rules', description: 'Rules that choose the channel of a shipment or order that names none, tried in order' },
  { name: 'Watched folders', description: 'Folders whose order CSV files are imported as they arrive' },
  { name: 'Imports', description: 'Order CSV files turned into shipments: progress, the result of each order and the failed rows' },
  { name: 'Desk', description: 'The packing desk in a browser (http://127.0.0.1:7420/): sign-in with a session cookie, one-time sign-in links and live events' },
];

type JsonSchema = Record<string, unknown>;
const isSchema = (value: unknown): value is JsonSchema => value !== null && typeof value === 'object' && !Array.isArray(value);
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'not'];

/**
 * A request schema as a client sees it: a property with a default may be left out. The route's own schema lists such
 * properties as required because validation fills the default in before the handler reads them.
 */
function defaultsOptional(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const copy: JsonSchema = { ...schema };
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(copy[key])) copy[key] = copy[key].map(defaultsOptional);
  for (const key of SUBSCHEMAS) if (isSchema(copy[key])) copy[key] = defaultsOptional(copy[key]);
  for (const key of SUBSCHEMA_MAPS) {
    const map = copy[key];
    if (isSchema(map)) copy[key] = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, defaultsOptional(value)]));
  }
  const properties = copy.properties;
  if (Array.isArray(copy.required) && isSchema(properties)) {
    const required = copy.required.filter((name: string) => !isSchema(properties[name]) || !('default' in properties[name]));
    if (required.length > 0) copy.required = required;
    else delete copy.required;
  }
  return copy;
}

const ITEM_VERBS: Record<string, string> = { GET: 'get', PATCH: 'update', PUT: 'put', DELETE: 'delete' };
const pascal = (segment: string) => segment.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
const camel = (segment: string) => segment.charAt(0) + pascal(segment).slice(1);
const singular = (segment: string) => pascal(segment.replace(/s$/, ''));

/**
 * `listShipments`, `getShipment`, `createShipment`, `cancelShipment`, `getShipmentLabel`: the verb from the method and
 * the shape of the path (item, collection, action), the resource from the path's nouns.
 */
function operationIdOf(method: string, url: string, paged: boolean): string {
  const segments = url.split('/').filter((segment) => segment !== '' && segment !== 'v1');
  const nouns = segments.filter((segment) => !segment.startsWith(':'));
  const last = segments[segments.length - 1] ?? '';
  if (last.startsWith(':')) return `${ITEM_VERBS[method] ?? method.toLowerCase()}${nouns.map(singular).join('')}`;
  const owners = nouns.slice(0, -1).map(singular).join('');
  if (method === 'POST') return owners === '' ? `create${singular(last)}` : `${camel(last)}${owners}`;
  if (method === 'GET' && (paged || (owners === '' && last.endsWith('s')))) return `list${owners}${pascal(last)}`;
  return `${method.toLowerCase()}${owners}${pascal(last)}`;
}

/** Each route as the OpenAPI document shows it: an operationId (unless the route names its own), defaults optional. */
export const documentedRoute: SwaggerTransform = ({ schema, url, route }) => {
  if (!schema) return { schema, url };
  const query = schema.querystring;
  const paged = isSchema(query) && isSchema(query.properties) && 'page' in query.properties;
  const documented: FastifySchema = { ...schema, operationId: schema.operationId ?? operationIdOf(String(route.method), url, paged) };
  for (const part of ['querystring', 'body', 'headers'] as const) {
    if (schema[part] !== undefined) documented[part] = defaultsOptional(schema[part]);
  }
  return { schema: documented, url };
};
