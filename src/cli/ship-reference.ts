import type { ApiClient, Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import type { ShipmentSummary } from './api-types.js';

/** Pages of search results read to find a reference: a reference of an order rarely matches more than a few. */
const MAX_SEARCH_PAGES = 10;

/** Shipments of the account whose reference number is exactly `reference`, except cancelled ones; newest first. */
export async function shipmentsWithReference(client: ApiClient, reference: string): Promise<ShipmentSummary[]> {
  const found: ShipmentSummary[] = [];
  for (let page = 1; page <= MAX_SEARCH_PAGES; page++) {
    const query = new URLSearchParams({ search: reference, per_page: '100', page: String(page) });
    // search matches parts of references, carrier ids and tracking numbers too: keep the exact references only
    const { body } = await client.get<Page<ShipmentSummary>>(`/v1/shipments?${query}`);
    found.push(...body.data.filter((s) => s.reference_number === reference && s.status !== 'cancelled'));
    if (page >= body.meta.last_page) break;
  }
  return found;
}

/** `sh_… (created, 2026-05-04)`, naming at most three earlier shipments. */
export function describeShipments(earlier: ShipmentSummary[]): string {
  const named = earlier.slice(0, 3).map((s) => `${s.id} (${s.status}, ${s.created_at.slice(0, 10)})`);
  return `${named.join(', ')}${earlier.length > 3 ? ` and ${earlier.length - 3} more` : ''}`;
}

/** How a repeated reference is settled: asked on a terminal, else refused unless `--allow-duplicate-reference`. */
export interface ReferenceCheck {
  interactive: boolean;
  allowDuplicate: boolean;
}

/**
 * Guards against shipping one order twice: when `reference` was shipped before, a person at a terminal is asked,
 * and an unattended run is refused (exit 2) unless it allows duplicates. Throws when nothing is to be created.
 */
export async function checkReference(client: ApiClient, reference: unknown, check: ReferenceCheck): Promise<void> {
  if (check.allowDuplicate || typeof reference !== 'string' || reference.trim() === '') return;
  const earlier = await shipmentsWithReference(client, reference);
  if (earlier.length === 0) return;
  const shipments = describeShipments(earlier);
  if (!check.interactive) {
    throw new CliError(
      `reference ${reference} was shipped before; give --allow-duplicate-reference to ship it again`, EXIT.usage,
      { reference_number: [`was shipped before: ${shipments}`] },
    );
  }
  const { confirm } = await import('@inquirer/prompts');
  process.stdout.write(`\nReference ${reference} was shipped before: ${shipments}.\n`);
  if (!(await confirm({ message: `Ship ${reference} again?`, default: false }))) {
    throw new CliError(`nothing created: ${reference} was shipped before`, EXIT.failure);
  }
}
