import type { Provider } from './api-types.js';
import type { ApiClient } from './client.js';

/** A carrier's products as people read them: `PRIV — PPL Parcel CZ Private`, not `PRIV` alone. */
export interface Products {
  /** Names by product code. */
  names: Readonly<Record<string, { name: string }>>;
  /** The channel setting that picks the product (PPL's productType, DHL's productCode …), if the provider has one. */
  settingKey: string | undefined;
  /** The product of a channel that does not set it. */
  defaultCode: string | undefined;
}

const providerLists = new WeakMap<ApiClient, Promise<Provider[]>>();

/** The providers as `GET /v1/providers` describes them, asked once per command. */
export function fetchProviders(client: ApiClient): Promise<Provider[]> {
  let list = providerLists.get(client);
  if (!list) providerLists.set(client, (list = client.get<{ data: Provider[] }>('/v1/providers').then((r) => r.body.data)));
  return list;
}

/** The names the daemon gives a provider's products (none for a provider without), and the setting that picks one. */
export function productsOfProvider(provider: Provider | undefined): Products {
  const names: Record<string, { name: string }> = Object.fromEntries((provider?.products ?? []).map((p) => [p.code, { name: p.name }]));
  const setting = provider?.settings.find((s) => s.enum?.length && s.enum.every((code) => Object.hasOwn(names, code)));
  return { names, settingKey: setting?.key, defaultCode: typeof setting?.default === 'string' ? setting.default : undefined };
}

export async function productsOf(client: ApiClient, provider: string): Promise<Products> {
  return productsOfProvider((await fetchProviders(client)).find((p) => p.code === provider));
}

/** `PRIV — PPL Parcel CZ Private`; the code alone where the carrier names no such product. */
export function describeProduct(code: string, products: Products): string {
  return Object.hasOwn(products.names, code) ? `${code} — ${products.names[code]!.name}` : code;
}

/** The product a channel's settings pick (else its provider's default), described; undefined where it picks none. */
export function channelProduct(settings: Readonly<Record<string, unknown>>, products: Products): string | undefined {
  const code = (products.settingKey ? settings[products.settingKey] : undefined) ?? products.defaultCode;
  return typeof code === 'string' ? describeProduct(code, products) : undefined;
}
