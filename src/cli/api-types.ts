import type { paths } from '../../web/src/api-schema.js';

/**
 * The /v1 records as the CLI reads them: aliases of the types generated from the API's own document
 * (web/src/api-schema.d.ts, `npm run desk:api`), the ones the desk reads too.
 */

type Path = keyof paths;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Success<R> = R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : R extends { 202: infer A } ? A : never;

/** The JSON a path's method answers when it succeeds. */
export type AnswerOf<P extends Path, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R } ? JsonOf<Success<R>> : never;
/** The `data` of that answer. */
export type DataOf<P extends Path, M extends keyof paths[P]> = AnswerOf<P, M> extends { data: infer D } ? D : never;
/** One item of a list's `data`. */
type ItemOf<P extends Path, M extends keyof paths[P] = 'get'> = DataOf<P, M> extends Array<infer I> ? I : never;
/** The JSON body a path's method takes. */
export type BodyOf<P extends Path, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

export type Health = AnswerOf<'/healthz', 'get'>;
export type Account = DataOf<'/v1/account', 'get'>;
export type DaemonSeen = ItemOf<'/v1/daemons'>;

export type Provider = ItemOf<'/v1/providers'>;
export type ProviderSetting = Provider['settings'][number];
export type SettingOption = ItemOf<'/v1/providers/{code}/setting-options', 'post'>;

export type Channel = DataOf<'/v1/shipping-channels/{id}', 'get'>;
export type ChannelAuthorization = DataOf<'/v1/shipping-channels/{id}/authorization', 'get'>;

export type Shipment = DataOf<'/v1/shipments/{id}', 'get'>;
export type ShipmentSummary = ItemOf<'/v1/shipments'>;
export type Contact = Shipment['recipient_contact'];
export type Address = Shipment['destination_address'];
export type Parcel = Shipment['parcels'][number];
export type LabelFormat = Shipment['label_format'];
export type CreateShipmentBody = BodyOf<'/v1/shipments', 'post'>;
export type UpdateShipmentBody = BodyOf<'/v1/shipments/{id}', 'patch'>;
/** The point a shipment goes to, as its record keeps it (name and address where the carrier's point API knew them). */
export type ShipmentPickupPoint = NonNullable<Shipment['pickup_point']>;
export type LabelPictures = Extract<DataOf<'/v1/shipments/{id}/label', 'get'>, { images: unknown }>;

export type Order = DataOf<'/v1/orders/{id}', 'get'>;

export type PickupPoint = DataOf<'/v1/pickup-points/{provider}/{id}', 'get'>;

export type Printer = DataOf<'/v1/printers/{id}', 'get'>;
export type PrintJob = DataOf<'/v1/print-jobs/{id}', 'get'>;

export type TrackingParcel = DataOf<'/v1/tracking-parcels/{id}', 'get'>;
export type TrackingParcelSummary = ItemOf<'/v1/tracking-parcels'>;

export type WebhookSubscription = DataOf<'/v1/webhook-subscriptions/{id}', 'get'>;
export type DeliveryLog = DataOf<'/v1/webhook-subscriptions/{id}/logs/{log_id}', 'get'>;

export type WatchedFolder = DataOf<'/v1/watched-folders/{id}', 'get'>;
export type ImportRecord = DataOf<'/v1/imports/{id}', 'get'>;
export type ImportOrderResult = ItemOf<'/v1/imports/{id}/result'>;
export type ImportRowError = ItemOf<'/v1/imports/{id}/errors'>;

export type Dispatch = DataOf<'/v1/dispatches/{id}', 'get'>;
export type CreateDispatchBody = BodyOf<'/v1/dispatches', 'post'>;
export type WaitingForDispatch = ItemOf<'/v1/dispatches/waiting'>;
export type PickupWindows = DataOf<'/v1/dispatches/pickup-windows', 'get'>;

export type DeskLoginLink = DataOf<'/v1/desk/login-links', 'post'>;

export type AccountStationSettings = DataOf<'/v1/station-settings', 'get'>;
export type StationSettings = BodyOf<'/v1/station-settings', 'put'>;
export type StationView = DataOf<'/v1/stations/{name}/settings', 'get'>;
export type BoxPreset = StationView['effective']['box_presets'][number];
