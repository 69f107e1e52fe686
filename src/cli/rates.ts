import type { Command } from 'commander';
import { ApiClient } from './client.js';
import { collect, printJson, printTable } from './output.js';
import { action } from './run.js';
import { addRecipientFlags, applyDefaults, bodyFromFlags, type ShipFlags } from './ship-body.js';
import { shippingStation } from './station-settings.js';

interface Quote { shipping_channel_id: string; name: string; provider: string; price: number | null; currency: string | null; cannot: string | null }

/** `packdesk rates`: the shipment `packdesk ship` would make, quoted at every active channel (or those named). */
export function registerRatesCommand(program: Command): void {
  addRecipientFlags(program.command('rates')
    .description("quote a shipment at every active channel: each one's price from its price list, or why it cannot carry it")
    .option('--from-json <file>', 'a creation body as JSON (- for stdin); the flags below override its fields')
    .option('--channel <id>', 'ask this channel only (ch_…); repeat for each', collect)
    .option('--sender-json <file>', 'sender as {"contact": {...}, "address": {...}} (default: the station\'s)')
    .option('--station <name>', "the station whose settings fill in the sender (default: the daemon's)"))
    .option('--json', 'print the quotes as JSON')
    .action(action(async (o: Omit<ShipFlags, 'channel'> & { channel?: string[]; station?: string; json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const { channel, ...flags } = o;
      const body = bodyFromFlags(flags);
      if (channel?.length) body.shipping_channel_ids = channel;
      body.station = (await shippingStation(client, o.station, o.json)).station;
      applyDefaults(body);
      const { body: answer } = await client.post<{ data: Quote[] }>('/v1/rates', body);
      if (o.json) return printJson(answer.data);
      printTable(['CHANNEL', 'PROVIDER', 'PRICE', 'CANNOT'], answer.data.map((q) => [
        `${q.name} (${q.shipping_channel_id})`, q.provider, q.price === null ? '—' : `${q.price.toFixed(2)} ${q.currency}`, q.cannot ?? '',
      ]));
    }));
}
