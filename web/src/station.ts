import { api, ApiError, data, type StationSettings, type StationView } from './api';
import { addressBody, addressOf, contactBody, isBlank, partyOf } from './pages/party-fields';
import { signal } from './signal';

/** This desk's station (the daemon's): its own settings and the effective ones it ships with, shared by the pages. */
export const station = signal<StationView | null>(null);

export async function loadStation(name: string): Promise<StationView> {
  const view = await data(api.GET('/v1/stations/{name}/settings', { params: { path: { name } } }));
  station.set(view);
  return view;
}

/** Settings as a PUT sends them: a field left to inherit is left out (absent and null mean the same). */
export function settingsBody(settings: StationSettings): StationSettings {
  return Object.fromEntries(Object.entries(settings).filter(([key, value]) => value !== null && key !== 'updated_at')) as StationSettings;
}

/** Where the desk kept the sender before stations had settings on the daemon. */
const BROWSER_SENDER = 'packdesk.sender';

/**
 * A sender this browser still keeps becomes the account's station sender, once, when the account has none; then the
 * browser forgets it. Kept when the daemon cannot be asked, dropped when the API refuses it (it could not ship either).
 */
export async function moveBrowserSender(): Promise<void> {
  const text = localStorage.getItem(BROWSER_SENDER);
  if (!text) return;
  try {
    const kept = JSON.parse(text) as { sender?: Record<string, string>; origin?: Record<string, string> };
    const account = await data(api.GET('/v1/station-settings'));
    const sender = partyOf(kept.sender);
    const origin = addressOf(kept.origin);
    if (!account.sender_contact && !isBlank(sender)) {
      await data(api.PUT('/v1/station-settings', {
        body: settingsBody({ ...account, sender_contact: contactBody(sender), origin_address: account.origin_address ?? (isBlank(origin) ? null : addressBody(origin)) }),
      }));
    }
  } catch (err) {
    if (!(err instanceof ApiError || err instanceof SyntaxError)) return;
  }
  localStorage.removeItem(BROWSER_SENDER);
}
