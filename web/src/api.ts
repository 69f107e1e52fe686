import createClient from 'openapi-fetch';
import type { paths } from './api-schema';

/** The desk's typed /v1 client (openapi-fetch over the types generated from GET /v1/openapi.json). */

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type BodyOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer R } ? Json<NonNullable<R>> : never;
type DataOf<P extends keyof paths, M extends keyof paths[P]> = Json<paths[P][M] extends { responses: { 200: infer R } } ? R : paths[P][M] extends { responses: { 201: infer R } } ? R : never> extends { data: infer D } ? D : never;

export type DeskSession = DataOf<'/v1/desk/session', 'get'>;
export type Shipment = DataOf<'/v1/shipments/{id}', 'get'>;
export type ShipmentSummary = DataOf<'/v1/shipments', 'get'> extends Array<infer S> ? S : never;
export type Channel = DataOf<'/v1/shipping-channels', 'get'> extends Array<infer C> ? C : never;
export type Printer = DataOf<'/v1/printers', 'get'> extends Array<infer P> ? P : never;
export type PrintJob = DataOf<'/v1/print-jobs', 'get'> extends Array<infer J> ? J : never;
export type TrackingParcel = DataOf<'/v1/tracking-parcels/{id}', 'get'>;
export type WatchedFolder = DataOf<'/v1/watched-folders', 'get'> extends Array<infer F> ? F : never;
export type ImportRecord = DataOf<'/v1/imports', 'get'> extends Array<infer I> ? I : never;
export type Order = DataOf<'/v1/orders/{id}', 'get'>;
export type Dispatch = DataOf<'/v1/dispatches/{id}', 'get'>;
export type WaitingForDispatch = DataOf<'/v1/dispatches/waiting', 'get'> extends Array<infer W> ? W : never;
export type PickupWindow = DataOf<'/v1/dispatches/pickup-windows', 'get'>['windows'][number];
export type Provider = DataOf<'/v1/providers', 'get'> extends Array<infer P> ? P : never;
export type Quote = DataOf<'/v1/rates', 'post'> extends Array<infer Q> ? Q : never;
export type PickupPoint = DataOf<'/v1/pickup-points/{provider}/{id}', 'get'>;
export type StationView = DataOf<'/v1/stations/{name}/settings', 'get'>;
export type StationSettings = BodyOf<'/v1/station-settings', 'put'>;
export type Effective = StationView['effective'];
export type BoxPreset = NonNullable<StationSettings['box_presets']>[number];
export type LabelFormat = Shipment['label_format'];
export type CreateShipmentBody = BodyOf<'/v1/shipments', 'post'>;
export type PatchShipmentBody = BodyOf<'/v1/shipments/{id}', 'patch'>;
export type ShipOrderBody = BodyOf<'/v1/orders/{id}/ship', 'post'>;
export type ShippingRule = DataOf<'/v1/shipping-rules', 'get'> extends Array<infer R> ? R : never;
export type ShippingRuleBody = BodyOf<'/v1/shipping-rules', 'post'>;

/** A refused request, with the field paths of the error envelope (`parcels.0.weight_amount` → messages). */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly errors: Record<string, string[]> = {}) {
    super(message);
  }
}

/** The daemon did not answer (stopped, restarting): the page keeps what was typed and tries again. */
export class UnreachableError extends Error {}

let csrfToken = '';
let onSignedOut: () => void = () => {};

/** Which session the client sends changes for, and what to do when the daemon says it has ended. */
export function bindSession(session: DeskSession | null, signedOut: () => void): void {
  csrfToken = session?.csrf_token ?? '';
  onSignedOut = signedOut;
}

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
api.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD') request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
});

/** The `data` of a successful answer; a refusal as ApiError (a 401 signs the desk out), no answer as UnreachableError. */
export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await request;
  } catch {
    throw new UnreachableError('packdesk is not answering');
  }
  const { data, error, response } = result;
  if (response.ok) return data as T;
  const body = (error ?? {}) as { message?: string; errors?: Record<string, string[]> };
  if (response.status === 401) onSignedOut();
  throw new ApiError(response.status, body.message ?? response.statusText, body.errors ?? {});
}

/** `call` for envelopes: the `data` inside. */
export async function data<T>(request: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<T> {
  return (await call(request)).data;
}

/** What a failed action tells a person: the message and every field's messages. */
export function errorText(err: unknown): string {
  return err instanceof ApiError ? [err.message, ...Object.values(err.errors).flat()].join(' ') : (err as Error).message;
}

/** Runs a page's action: its error shown through `setError` (cleared when it starts), never thrown. */
export async function runAction(setError: (text: string) => void, action: () => Promise<unknown>): Promise<void> {
  try {
    setError('');
    await action();
  } catch (err) {
    setError(errorText(err));
  }
}
