import type { Command } from 'commander';
import type { DataOf } from './api-types.js';
import { ApiClient } from './client.js';
import { collect, printJson, printTable } from './output.js';
import { action } from './run.js';
import { addRecipientFlags, applyDefaults, bodyFromFlags, type Json, type ShipFlags } from './ship-body.js';
import { shippingStation } from './station-settings.js';

type Quote = DataOf<'/v1/rates', 'post'>[number];

/** The flags of a shipment asked about before it has a channel: `rates`', and `rules test`'s. */
export type ShipmentQuestionFlags = Omit<ShipFlags, 'channel'> & { station?: string; json?: boolean };

/** Adds the flags that describe a shipment asked about (not created): a JSON body, the sender, the station, the recipient and parcels. */
export function addShipmentQuestionFlags(command: Command): Command {
  return addRecipientFlags(command
    .option('--from-json <file>', 'a creation body as JSON (- for stdin); the flags below override its fields')
    .option('--sender-json <file>', 'sender as {"contact": {...}, "address": {...}} (default: the station\'s)')
    .option('--station <name>', "the station whose settings fill in the sender (default: the daemon's)"));
}

/** The body `packdesk ship` would send for those flags, read at the station, without a channel. */
export async function shipmentQuestionBody(client: ApiClient, flags: ShipmentQuestionFlags): Promise<Json> {
  const body = bodyFromFlags(flags);
  body.station = (await shippingStation(client, flags.station, flags.json)).station;
  applyDefaults(body);
  return body;
}

/** `packdesk rates`: the shipment `packdesk ship` would make, quoted at every active channel (or those named). */
export function registerRatesCommand(program: Command): void {
  addShipmentQuestionFlags(program.command('rates')
    .description("quote a shipment at every active channel: each one's price from its carrier's rate API or its price list, and transit days, or why it cannot carry it")
    .option('--channel <id>', 'ask this channel only (ch_…); repeat for each', collect))
    .option('--json', 'print the quotes as JSON')
    .action(action(async (o: ShipmentQuestionFlags & { channel?: string[] }) => {
      const client = ApiClient.fromConfig();
      const { channel, ...flags } = o;
      const body = await shipmentQuestionBody(client, flags);
      if (channel?.length) body.shipping_channel_ids = channel;
      const { body: answer } = await client.post<{ data: Quote[] }>('/v1/rates', body);
      if (o.json) return printJson(answer.data);
      printTable(['CHANNEL', 'PROVIDER', 'PRICE', 'TRANSIT', 'CANNOT'], answer.data.map((q) => [
        `${q.name} (${q.shipping_channel_id})`, q.provider, q.price === null ? '—' : `${q.price.toFixed(2)} ${q.currency}`,
        q.transit_days === null ? '' : `${q.transit_days} d`, q.cannot ?? q.carrier_error ?? '',
      ]));
    }));
}
