import { existsSync } from 'node:fs';
import type { AccountStationSettings, StationSettings, StationView } from './api-types.js';
import { daemonStation, type ApiClient } from './client.js';
import { readSender, senderPath, type Sender } from './ship-body.js';

/** The account's station settings, which every station starts from. */
export const ACCOUNT_SETTINGS_PATH = '/v1/station-settings';
export const stationSettingsPath = (name: string) => `/v1/stations/${encodeURIComponent(name)}/settings`;

/** Settings as a PUT takes them: the values set, without the record's time stamp; null and absent both inherit. */
export function ownSettings(settings: AccountStationSettings | StationSettings): StationSettings {
  const { updated_at: _updatedAt, ...own } = settings as AccountStationSettings;
  return Object.fromEntries(Object.entries(own).filter(([, value]) => value !== null)) as StationSettings;
}

/** `--station NAME`, else the station of the daemon the CLI talks to. */
export async function stationName(client: ApiClient, flag: string | undefined): Promise<string> {
  return flag ?? daemonStation(client);
}

export async function fetchStation(client: ApiClient, name: string): Promise<StationView> {
  return (await client.get<{ data: StationView }>(stationSettingsPath(name))).body.data;
}

export async function fetchAccountSettings(client: ApiClient): Promise<AccountStationSettings> {
  return (await client.get<{ data: AccountStationSettings }>(ACCOUNT_SETTINGS_PATH)).body.data;
}

/** Makes `sender` the account's station sender (sender_contact and origin_address), keeping its other settings. */
export async function storeAccountSender(client: ApiClient, sender: Sender, current?: AccountStationSettings): Promise<void> {
  const settings = ownSettings(current ?? await fetchAccountSettings(client));
  await client.request('PUT', ACCOUNT_SETTINGS_PATH, { ...settings, sender_contact: sender.contact, origin_address: sender.address });
}

/**
 * The sender `packdesk ship` stored in sender.json before stations had settings: moved once into the account's
 * station settings when they have no sender yet, and read from the daemon from then on. Answers what it said.
 */
export async function migrateSenderFile(client: ApiClient): Promise<string | undefined> {
  const path = senderPath();
  if (!existsSync(path)) return undefined;
  const account = await fetchAccountSettings(client);
  if (account.sender_contact || account.origin_address) return undefined;
  await storeAccountSender(client, readSender(path, 'the stored sender'), account);
  return `sender from ${path} is now the account's station sender; you may delete the file`;
}

/** The station a shipment is made at, its sender moved from sender.json first where that applies (said on stderr with --json). */
export async function shippingStation(client: ApiClient, flag: string | undefined, json: boolean | undefined): Promise<StationView> {
  const name = await stationName(client, flag);
  const migrated = await migrateSenderFile(client);
  if (migrated) (json ? process.stderr : process.stdout).write(`${migrated}\n`);
  return fetchStation(client, name);
}
