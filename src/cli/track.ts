import type { Command } from 'commander';
import type { TrackingParcel, TrackingParcelSummary } from './api-types.js';
import { ApiClient, type Page } from './client.js';
import { printJson, printPageFooter, printRecord, printTable } from './output.js';
import { action, listPath, parsePositiveInt } from './run.js';

const trackingPath = (id: string) => `/v1/tracking-parcels/${encodeURIComponent(id)}`;

function printTrackingParcel(p: TrackingParcel | TrackingParcelSummary): void {
  printRecord({
    id: p.id, 'tracking number': p.tracking_number, status: p.status, channel: p.shipping_channel_id,
    ...(p.shipment_id ? { shipment: p.shipment_id } : {}),
    origin: p.origin,
    ...(p.recipient_name || p.recipient_email || p.recipient_phone
      ? { recipient: [p.recipient_name, p.recipient_email, p.recipient_phone].filter(Boolean).join(', ') } : {}),
    checks: `${p.checks_done} of ${p.max_checks}, every ${p.check_delay_hours} h`,
    'last checked': p.last_checked_at ?? 'never',
    'next check': p.next_check_at ?? 'none (tracking stopped)',
    'tracking url': p.tracking_url,
    created: p.created_at, updated: p.updated_at,
  });
  if (!('status_updates' in p)) return;
  process.stdout.write('\nstatus updates (newest first)\n');
  printTable(
    ['time', 'status', 'carrier code', 'carrier text', 'location'],
    p.status_updates.map((u) => [u.timestamp, u.status, u.carrier_status.code, u.carrier_status.text, u.location]),
  );
}

interface AddOptions {
  channel: string;
  recipientName?: string;
  recipientEmail?: string;
  recipientPhone?: string;
  checkDelayHours?: string;
  maxChecks?: string;
  json?: boolean;
}

interface ListOptions {
  status?: string;
  channel?: string;
  search?: string;
  page?: string;
  perPage?: string;
  json?: boolean;
}

/** `packdesk track …`: tracking parcels (carrier numbers the daemon polls) over the daemon's API. */
export function registerTrackCommands(program: Command): void {
  const track = program.command('track').description('tracking parcels: add a carrier tracking number, list, show, refresh, remove');

  track.command('add')
    .description('track a parcel by its carrier tracking number (the first check runs at once)')
    .argument('<tracking-number>', "the carrier's tracking number")
    .requiredOption('--channel <id>', 'the shipping channel of the carrier (ch_…)')
    .option('--recipient-name <name>', 'who receives the parcel')
    .option('--recipient-email <email>', "the recipient's e-mail")
    .option('--recipient-phone <phone>', "the recipient's phone")
    .option('--check-delay-hours <n>', 'hours between checks (1-168, default 6)')
    .option('--max-checks <n>', 'checks before tracking stops (1-1000, default 20)')
    .option('--json', 'print JSON')
    .action(action(async (number: string, o: AddOptions) => {
      const { body } = await ApiClient.fromConfig().post<{ data: TrackingParcel }>('/v1/tracking-parcels', {
        tracking_number: number, shipping_channel_id: o.channel,
        ...(o.recipientName !== undefined ? { recipient_name: o.recipientName } : {}),
        ...(o.recipientEmail !== undefined ? { recipient_email: o.recipientEmail } : {}),
        ...(o.recipientPhone !== undefined ? { recipient_phone: o.recipientPhone } : {}),
        ...(o.checkDelayHours !== undefined ? { check_delay_hours: parsePositiveInt(o.checkDelayHours, '--check-delay-hours') } : {}),
        ...(o.maxChecks !== undefined ? { max_checks: parsePositiveInt(o.maxChecks, '--max-checks') } : {}),
      });
      if (o.json) printJson(body.data);
      else printTrackingParcel(body.data);
    }));

  track.command('list')
    .description('list tracking parcels, newest first')
    .option('--status <status>', 'only this status (created, in_transit, out_for_delivery, delivered, …)')
    .option('--channel <id>', 'only this shipping channel (ch_…)')
    .option('--search <text>', 'part of a tracking number')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'tracking parcels per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: ListOptions) => {
      const { body } = await ApiClient.fromConfig().get<Page<TrackingParcelSummary>>(listPath('/v1/tracking-parcels', { status: o.status, shipping_channel_id: o.channel, search: o.search }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'tracking number', 'status', 'channel', 'shipment', 'checks', 'next check'],
        body.data.map((p) => [p.id, p.tracking_number, p.status, p.shipping_channel_id, p.shipment_id ?? '-', `${p.checks_done}/${p.max_checks}`, p.next_check_at ?? 'stopped']),
      );
      printPageFooter(body.meta);
    }));

  track.command('show')
    .description('show one tracking parcel with its status updates, newest first')
    .argument('<id>', 'tracking parcel id (tp_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<{ data: TrackingParcel }>(trackingPath(id));
      if (o.json) printJson(body.data);
      else printTrackingParcel(body.data);
    }));

  track.command('refresh')
    .description('check the parcel at its carrier now (counts as one of its checks)')
    .argument('<id>', 'tracking parcel id (tp_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().post<{ data: TrackingParcel }>(`${trackingPath(id)}/refresh`);
      if (o.json) printJson(body.data);
      else printTrackingParcel(body.data);
    }));

  track.command('remove')
    .description('stop tracking a parcel added with `track add` (a shipment\'s parcels are tracked with the shipment)')
    .argument('<id>', 'tracking parcel id (tp_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      await ApiClient.fromConfig().delete(trackingPath(id));
      if (o.json) printJson({ id, deleted: true });
      else process.stdout.write(`removed ${id}\n`);
    }));
}
