import { useEffect, useState } from 'preact/hooks';
import { api, data, type Channel, type Printer, type Provider } from './api';
import { onLive } from './live';

/** The account's printers, their state kept current by the desk's live events. */
export function usePrinters(): Printer[] {
  const [printers, setPrinters] = useState<Printer[]>([]);
  useEffect(() => {
    const load = () => void data(api.GET('/v1/printers', { params: { query: { per_page: 100 } } })).then(setPrinters).catch(() => undefined);
    load();
    return onLive((kind) => { if (kind === 'printer' || kind === 'ready') load(); });
  }, []);
  return printers;
}

/** The account's shipping channels (all, or only those ready to ship). */
export function useChannels(onlyActive = false): Channel[] {
  const [channels, setChannels] = useState<Channel[]>([]);
  useEffect(() => {
    void data(api.GET('/v1/shipping-channels', { params: { query: { per_page: 100 } } }))
      .then((list) => setChannels(onlyActive ? list.filter((c) => c.status === 'active') : list)).catch(() => undefined);
  }, [onlyActive]);
  return channels;
}

/** Whether the account has an active shipping rule: then a shipment may leave its channel to the rules. */
export function useHasRules(): boolean {
  const [has, setHas] = useState(false);
  useEffect(() => void data(api.GET('/v1/shipping-rules')).then((rules) => setHas(rules.some((r) => r.active))).catch(() => undefined), []);
  return has;
}

/** The carriers as GET /v1/providers describes them: what each offers (courier pickup, points). */
export function useProviders(): Provider[] {
  const [providers, setProviders] = useState<Provider[]>([]);
  useEffect(() => void data(api.GET('/v1/providers')).then(setProviders).catch(() => undefined), []);
  return providers;
}
