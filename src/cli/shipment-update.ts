import type { Command } from 'commander';
import type { Shipment } from './api-types.js';
import { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { printJson } from './output.js';
import { action } from './run.js';
import { addRecipientFlags, layRecipientFlags, type Json, type RecipientFlags } from './ship-body.js';
import { fixRefusedHint, reportShipment } from './ship-report.js';
import { parseWait, shipmentPath } from './shipment-records.js';
import { usualCurrency } from '../domain/reference-data.js';

interface UpdateFlags extends RecipientFlags {
  reference?: string;
  labelComment?: string;
  out?: string;
  wait: string;
  json?: boolean;
}

/**
 * The PATCH body: the fields the flags change. A contact or an address goes whole (the API replaces each), the
 * shipment's own values beneath the flags; COD without a currency takes the shipment's, else the country's usual one.
 */
function patchFromFlags(current: Shipment, o: UpdateFlags): Json {
  const base: Json = { recipient_contact: { ...current.recipient_contact }, destination_address: { ...current.destination_address } };
  const patch: Json = {};
  for (const key of layRecipientFlags(base, o)) patch[key] = base[key];
  if (patch.cash_on_delivery_amount !== undefined && patch.cash_on_delivery_currency === undefined && !current.cash_on_delivery_currency) {
    const currency = usualCurrency(current.destination_address.country_code);
    if (currency) patch.cash_on_delivery_currency = currency;
  }
  if (o.reference !== undefined) patch.reference_number = o.reference;
  if (o.labelComment !== undefined) patch.label_comment = o.labelComment;
  return patch;
}

/** Fields whose change re-creates a refused shipment at the carrier (the others are kept at any time). */
const CORRECTIONS = ['recipient_contact', 'destination_address', 'pickup_point', 'parcels', 'cash_on_delivery_amount', 'cash_on_delivery_currency'];

/** `packdesk shipments update ID …`: corrects a shipment the carrier refused, which is then created again as the same shipment. */
export function registerShipmentUpdateCommand(shipments: Command): void {
  addRecipientFlags(shipments.command('update')
    .description('correct a shipment the carrier refused (it is created again as the same shipment), or change its reference or label comment')
    .argument('<id>', 'shipment id (sh_…)'))
    .option('--reference <text>', 'reference number, e.g. the order number')
    .option('--label-comment <text>', 'a note printed on the label where the carrier prints one')
    .option('--out <file>', 'where to save the label once created (default: <reference or id>.<ext> in the current directory)')
    .option('--wait <seconds>', 'how long to wait for the carrier (0-30)', '30')
    .option('--json', 'print the shipment as JSON (after a correction: with label_file, print_job and not_printed, as `ship --json`)')
    .action(action(async (id: string, o: UpdateFlags) => {
      const wait = parseWait(o.wait);
      const client = ApiClient.fromConfig();
      const current = (await client.get<{ data: Shipment }>(shipmentPath(id))).body.data;
      const patch = patchFromFlags(current, o);
      if (Object.keys(patch).length === 0) {
        throw new CliError('nothing to update: give the fields to correct (e.g. --postal-code, --recipient-phone, --parcel), --reference or --label-comment', EXIT.usage);
      }
      const correcting = Object.keys(patch).some((key) => CORRECTIONS.includes(key));
      const headers: Record<string, string> = correcting && wait > 0 ? { prefer: `wait=${wait}` } : {};
      const { body } = await client.request<{ data: Shipment }>('PATCH', shipmentPath(id), patch, headers);
      if (!correcting) {
        if (o.json) printJson(body.data);
        else process.stdout.write(`updated ${body.data.id}${body.data.reference_number ? ` (reference ${body.data.reference_number})` : ''}\n`);
        return;
      }
      await reportShipment(client, body.data, {
        wait, out: o.out, json: o.json, notPrinted: 'nothing was asked to print for this shipment', whenRefused: fixRefusedHint,
      });
    }));
}
