import type { FieldErrors } from '../../domain/errors.js';

/** PPL CPL API responses → our results. Pure. Docs: https://ppl-cpl-api-en.apidog.io */

export interface BatchItem {
  referenceId?: string;
  shipmentNumber?: string;
  labelUrl?: string;
  importState?: string;
  errorMessage?: string;
  relatedItems?: { shipmentNumber?: string; labelUrl?: string }[];
}

export type BatchOutcome =
  | { state: 'processing' }
  | { state: 'error'; message: string }
  | { state: 'complete'; parcels: { trackingNumber: string; labelUrl: string }[] };

/** `GET /shipment/batch/{id}`: the master parcel first, then the set's related parcels in order. */
export function parseBatchStatus(body: { items?: BatchItem[] }, referenceId: string): BatchOutcome {
  const item = body.items?.find((i) => i.referenceId === referenceId) ?? body.items?.[0];
  if (!item) return { state: 'processing' };
  if (item.importState === 'Error') return { state: 'error', message: item.errorMessage ?? 'PPL refused the shipment' };
  if (item.importState !== 'Complete' || !item.shipmentNumber || !item.labelUrl) return { state: 'processing' };
  const parcels = [{ trackingNumber: item.shipmentNumber, labelUrl: item.labelUrl }];
  for (const related of item.relatedItems ?? []) {
    if (!related.shipmentNumber || !related.labelUrl) return { state: 'processing' };
    parcels.push({ trackingNumber: related.shipmentNumber, labelUrl: related.labelUrl });
  }
  return { state: 'complete', parcels };
}

/** PPL's field names (`Shipments[0].Recipient.ZipCode`) → our field paths. */
const FIELD_PATHS: [RegExp, string][] = [
  [/^recipient\.zipcode$/, 'destination_address.postal_code'],
  [/^recipient\.city$/, 'destination_address.city_name'],
  [/^recipient\.street$/, 'destination_address.street_name'],
  [/^recipient\.country$/, 'destination_address.country_code'],
  [/^recipient\.(name|name2|contact)$/, 'recipient_contact.company_name'],
  [/^recipient\.phone$/, 'recipient_contact.phone_number'],
  [/^recipient\.email$/, 'recipient_contact.email_address'],
  [/^sender\.zipcode$/, 'origin_address.postal_code'],
  [/^sender\.city$/, 'origin_address.city_name'],
  [/^sender\.street$/, 'origin_address.street_name'],
  [/^sender\.country$/, 'origin_address.country_code'],
  [/^sender\.(name|name2|contact)$/, 'sender_contact.company_name'],
  [/^sender\.phone$/, 'sender_contact.phone_number'],
  [/^sender\.email$/, 'sender_contact.email_address'],
  [/^cashondelivery\.codcurrency$/, 'cash_on_delivery_currency'],
  [/^cashondelivery(\..*)?$/, 'cash_on_delivery_amount'],
  [/^shipmentset(\..*)?$/, 'parcels'],
  [/^producttype$/, 'shipping_channel_id'],
  [/^externalnumbers(\[\d+\])?(\..*)?$/, 'reference_number'],
  [/^note$/, 'label_comment'],
];

export function pplFieldPath(key: string): string {
  const local = key.replace(/^shipments\[\d+\]\./i, '').toLowerCase();
  return FIELD_PATHS.find(([pattern]) => pattern.test(local))?.[1] ?? 'shipment';
}

export interface ProblemDetails {
  title?: string;
  detail?: string;
  status?: number;
  errors?: Record<string, string[]>;
}

/** An RFC 7807 problem from PPL → a message and our field errors. */
export function parseProblem(problem: ProblemDetails, status: number): { message: string; errors: FieldErrors } {
  const errors: FieldErrors = {};
  for (const [key, messages] of Object.entries(problem.errors ?? {})) {
    const path = pplFieldPath(key);
    for (const m of messages) (errors[path] ??= []).push(`PPL: ${m}`);
  }
  const first = Object.values(problem.errors ?? {})[0]?.[0];
  const message = `PPL refused the request (HTTP ${status})${first ? `: ${first}` : problem.detail ? `: ${problem.detail}` : ''}`;
  return { message, errors };
}

export interface PplTrackedShipment {
  shipmentNumber: string;
  shipmentState?: string;
  trackAndTrace?: { events?: { statusId?: number; code?: string; name?: string; eventDate?: string; phase?: string }[] };
}
