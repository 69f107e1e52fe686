import type { Logger } from 'pino';
import type { FieldErrors } from '../domain/errors.js';
import type { Clock } from '../domain/clock.js';
import type { CustomsContentsType, CustomsDocumentType } from '../domain/customs.js';
import type { LabelFormat } from '../domain/labels.js';
import type { TrackingStatus } from '../domain/tracking.js';
import type { TrackingCodeList } from './codes.js';
import type { ProviderEmulatorFactory } from './emulator/contract.js';

/** What every carrier provider declares, and the adapter interface each one implements. */

export type { LabelFormat } from '../domain/labels.js';

/** One key of a channel's `settings` object. Keys are camelCase. */
export interface SettingSpec {
  key: string;
  type: 'string' | 'boolean' | 'integer' | 'number';
  required: boolean;
  /** Secret values are encrypted at rest and never returned unmasked. */
  secret: boolean;
  description: string;
  default?: string | number | boolean;
  /** Allowed values, for string settings that are code lists (e.g. a product code). */
  enum?: readonly string[];
  /** The carrier lists the values for the credentials (`adapter.settingOptions`, `POST /v1/providers/{code}/setting-options`). */
  listed?: boolean;
  /** The carrier's format of a string value: a regular expression (source, anchored) the whole value matches. */
  pattern?: string;
  /** `pattern` in words, completing "must be …" (e.g. `9 to 12 digits`). */
  patternDescription?: string;
  /** Length limits of a string value, in characters. */
  minLength?: number;
  maxLength?: number;
  /** Limits of an integer or number value. */
  minimum?: number;
  maximum?: number;
}

export interface ProviderCapabilities {
  /** The formats the carrier itself produces; packdesk converts its labels into the others (labels/convert.ts). */
  nativeLabelFormats: readonly LabelFormat[];
  cashOnDelivery: boolean;
  multiParcel: boolean;
  maxParcels: number;
  cancel: boolean;
  /** The carrier reports one state for the whole shipment, which all its parcels share. */
  trackingPerShipment?: boolean;
  /** The adapter sends a customs declaration: it ships across a customs border (absent: packdesk refuses such routes). */
  customs?: boolean;
  /** The adapter creates return shipments (`ShipmentForCarrier.returnOf`) with the carrier's return product. */
  returns?: boolean;
}

/** Capabilities a channel's settings turn off, each with the reason a user reads (and a refusal gives). */
export interface CapabilitiesWithdrawn {
  cancel?: string;
}

/** Settings after validation: plain values keyed by setting key. */
export type ChannelSettings = Record<string, string | number | boolean>;

export type ValidationOutcome =
  | { ok: true }
  | { ok: false; message: string; errors?: Record<string, string[]> };

/** A party of a shipment as adapters see it. */
export interface CarrierParty {
  companyName: string | null;
  /** First and last name, or null when only a company is given. */
  personName: string | null;
  email: string;
  /** International format, digits only after `+`. */
  phone: string;
  street: string;
  houseNumber: string;
  apartmentNumber: string | null;
  city: string;
  postalCode: string;
  countryCode: string;
}

export interface CarrierParcel {
  parcelType: string;
  weightKg: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

/** Our shipment, in units every adapter understands, for the carrier step. */
export interface ShipmentForCarrier {
  id: string;
  reference: string | null;
  shippingDate: string;
  labelFormat: LabelFormat;
  sender: CarrierParty;
  /** The person, and the door, or with `pickupPoint` the point's address. */
  recipient: CarrierParty;
  parcels: CarrierParcel[];
  cashOnDelivery: { amountMinor: number; currency: string } | null;
  labelComment: string | null;
  /** Delivered to this pickup point or locker of the carrier instead of a door: the adapter picks its point product. */
  pickupPoint: ShipmentPickupPoint | null;
  /** The customs declaration, set only where the route crosses a customs border (src/domain/customs.ts). */
  customs: CustomsForCarrier | null;
  /**
   * Set: this shipment returns an earlier one of the same carrier to its sender. The parties are already swapped (the
   * sender is the customer, the recipient the warehouse); the adapter uses the carrier's return product.
   */
  returnOf: { providerShipmentId: string; trackingNumbers: string[] } | null;
}

/** One line of a customs declaration: quantity × unit value in the declaration's currency, weights in kg. */
export interface CustomsItemForCarrier {
  description: string;
  /** 6 to 10 digits (the HS code, or a national tariff code that begins with it); null where documents need none. */
  hsCode: string | null;
  quantity: number;
  unitValueMinor: number;
  unitWeightKg: number;
  originCountry: string;
  sku: string | null;
}

/** A shipment's customs declaration, as the adapter sends it; the total value is the items' quantity × unit value. */
export interface CustomsForCarrier {
  contentsType: CustomsContentsType;
  /** Incoterms 2020 code: who pays duties and taxes (DAP: the recipient, DDP: the sender …). */
  incoterm: string;
  invoiceNumber: string;
  /** YYYY-MM-DD */
  invoiceDate: string;
  currency: string;
  exporterEori: string | null;
  exporterVatNumber: string | null;
  importerTaxId: string | null;
  items: CustomsItemForCarrier[];
}

/** A customs document the carrier made for a shipment (a commercial invoice, a CN23), kept and downloadable with it. */
export interface CarrierDocument {
  type: CustomsDocumentType;
  /** A PDF. */
  content: Uint8Array;
}

/** Where a carrier's recipients collect parcels instead of at their door. */
export const PICKUP_POINT_TYPES = ['parcelshop', 'locker', 'post_office'] as const;
export type PickupPointType = (typeof PICKUP_POINT_TYPES)[number];

/** The point a shipment goes to: the carrier's own id of it, and its type where known. */
export interface ShipmentPickupPoint {
  id: string;
  type: PickupPointType | null;
}

/** A pickup point or parcel locker as its carrier's point API describes it. */
export interface PickupPoint {
  /** The carrier's id of the point, as its shipment requests name it. */
  id: string;
  name: string;
  type: PickupPointType;
  address: { street: string; houseNumber: string; city: string; postalCode: string; countryCode: string };
  /** Per ISO weekday (1 Monday … 7 Sunday), its opening intervals in local time; a day absent is closed. */
  openingHours: { day: number; from: string; to: string }[];
  location: { lat: number; lon: number } | null;
  /** Whether the point takes cash on delivery. */
  cashOnDelivery: boolean;
  /** False: the point exists but takes no parcels now (closed for good or for a while). */
  open: boolean;
}

/** A search for points: in a country, near a postal code, a city or coordinates; of one type or any. */
export interface PickupPointQuery {
  countryCode: string;
  postalCode?: string;
  city?: string;
  near?: { lat: number; lon: number };
  type?: PickupPointType;
  /** At most this many, nearest (or best matching) first. */
  limit: number;
}

/** A carrier's pickup points: the types its shipments deliver to, and where it publishes them, their search. */
export interface PickupPointService {
  types: readonly PickupPointType[];
  /**
   * The carrier's point API; absent where it publishes none (the carrier then refuses an unknown point at creation).
   * Always asked through a channel: its settings carry the credentials, the sandbox and the base URL.
   */
  finder?: {
    search(query: PickupPointQuery, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint[]>;
    /**
     * One point by id; undefined when the carrier does not know it. Absent where the carrier looks points up only by
     * searching: packdesk then knows a point from a recent search only, and else leaves the check to the carrier.
     */
    find?(id: string, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint | undefined>;
  };
}

export interface CreatedAtCarrier {
  providerShipmentId: string;
  /** The carrier product actually used (after a COD switch). */
  product: string | null;
  /** One per parcel, in input order: its tracking number, the carrier's label bytes and what tracking needs besides the number. */
  parcels: { trackingNumber: string; label: Uint8Array; carrierRef?: string }[];
  totalPrice?: { amountMinor: number; currency: string };
  /** The customs documents the carrier made (DHL Express's commercial invoice …). */
  documents?: CarrierDocument[];
}

/** Lets a multi-step creation save its place durably (e.g. PPL's batch id) and find it again after a crash. */
export interface CarrierProgress {
  load(): Record<string, unknown> | null;
  /** Resolves once the place is stored: await it before the carrier call it stands for. */
  save(progress: Record<string, unknown>): Promise<void>;
}

/** What a carrier does when its parcels are handed over at the end of the day (`dispatch` of an adapter). */
export interface DispatchCapabilities {
  /** Confirms the day's shipments at the carrier (GLS Poland's pickup out of the preparing box); without it they never leave. */
  close: boolean;
  /** Gives the carrier's own hand-over document (protocol, manifest) to sign. */
  protocol: boolean;
  /** Books a courier for a date and time window. */
  pickup: boolean;
}

/** A created shipment handed over in a dispatch, as the carrier knows it. */
export interface ShipmentToDispatch {
  providerShipmentId: string;
  reference: string | null;
  /** Its parcels in order: tracking number, and the carrier's own parcel id where creation gave one. */
  parcels: { trackingNumber: string; carrierRef: string | null; weightKg: number }[];
  cashOnDelivery: { amountMinor: number; currency: string } | null;
}

/** The courier asked for: a day and a window in the station's local time. */
export interface PickupRequest {
  /** YYYY-MM-DD. */
  date: string;
  /** HH:MM. */
  from: string;
  to: string;
}

/** What the hand-over is for the carrier: the shipments, where they are picked up, and the courier if one is asked. */
export interface DispatchForCarrier {
  id: string;
  shipments: ShipmentToDispatch[];
  /** The sender and pickup address of the shipments (the first one's). */
  sender: CarrierParty;
  pickup: PickupRequest | null;
}

/** What the carrier answered to a hand-over. */
export interface DispatchedAtCarrier {
  /** The carrier's id of the close, protocol or pickup (GLS Poland's pickup id, DHL's dispatchConfirmationNumber …). */
  carrierRef: string | null;
  /** The carrier's own hand-over document (protocol, manifest), a PDF; packdesk prints its own list when absent. */
  document?: Uint8Array;
  /** The courier booked: the carrier's confirmation and the window it confirmed. */
  pickup?: BookedPickup;
}

/**
 * A courier booking as the carrier answered it. `confirmation` is null only where the booking's answer was lost and
 * the carrier offers no way to look a booking up: `note` then tells the person what to check instead of booking twice.
 */
export interface BookedPickup {
  confirmation: string | null;
  date: string;
  from: string;
  to: string;
  note?: string;
}

/** A window in which the carrier's courier can come on a day, as the carrier offers it for the pickup address. */
export interface PickupWindow {
  /** YYYY-MM-DD. */
  date: string;
  /** HH:MM, the station's local time. */
  from: string;
  to: string;
}

/** A carrier's end-of-day operations; an adapter without it needs none (packdesk's own hand-over list serves). */
export interface CarrierDispatcher {
  capabilities: DispatchCapabilities;
  /**
   * Closes, gets the protocol and books the courier, as the carrier needs, exactly once: a step is saved in `progress`
   * before the next, and a run after a crash finds what the carrier already did instead of doing it again.
   */
  handOver(dispatch: DispatchForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress }): Promise<DispatchedAtCarrier>;
  /** Whether a shipment handed over can still be cancelled at the carrier (false: cancel answers 422). */
  cancelAfterHandOver: boolean;
  /**
   * The courier windows the carrier offers on `date` at the sender's address for the shipments waiting to be handed
   * over (some carriers propose times per shipment); absent where the carrier publishes none.
   */
  pickupWindows?(query: { date: string; sender: CarrierParty; shipments: readonly ShipmentToDispatch[] }, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupWindow[]>;
}

/** The I/O side of a provider. */
export interface CarrierAdapter {
  /** Delivery to the carrier's pickup points and lockers; absent where packdesk ships only to doors with it. */
  pickupPoints?: PickupPointService;
  /** End-of-day hand-over at the carrier; absent where the carrier needs nothing (packdesk's hand-over list). */
  dispatch?: CarrierDispatcher;
  /** Log in / fetch a token / make a cheap authenticated read with the channel's credentials. */
  validate(settings: ChannelSettings, ctx: CarrierContext): Promise<ValidationOutcome>;
  /** All parcels, COD and the requested label format → carrier ids, tracking numbers and label bytes. */
  createShipment(shipment: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress }): Promise<CreatedAtCarrier>;
  /** Present only where the carrier can cancel. */
  cancel?(shipment: { providerShipmentId: string; trackingNumbers: string[] }, settings: ChannelSettings, ctx: CarrierContext): Promise<void>;
  trackingUrl(trackingNumber: string): string;
  /** The carrier's tracking number format, where one is known. */
  trackingNumberPattern?: RegExp;
  /** The carrier's tracking: one result per asked parcel, by its number, in any order. */
  track(parcels: readonly ParcelToTrack[], settings: ChannelSettings, ctx: CarrierContext): Promise<TrackResult[]>;
  /** How many numbers one `track` call takes (PPL: 100); 1 when absent. */
  trackBatchSize?: number;
  /**
   * The values a setting may take that the carrier lists for these credentials (Baselinker's couriers and courier
   * accounts), for `channels add` to offer; undefined for a key the carrier lists nothing for. `settings` holds what
   * the user entered so far: the credentials, maybe not the later keys.
   */
  settingOptions?(key: string, settings: ChannelSettings, ctx: CarrierContext): Promise<SettingOption[] | undefined>;
  /**
   * The carrier's rate API: what the shipment would cost the channel's account, without creating it. Absent where the
   * carrier answers prices only at creation, or none (the channel's price list prices it then).
   */
  rate?(shipment: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext): Promise<CarrierRate>;
}

/** A carrier's price for a shipment, and its transit time where it gives one. */
export interface CarrierRate {
  amountMinor: number;
  currency: string;
  /** Working days on the way, as the carrier counts them. */
  transitDays?: number | null;
  /** The carrier's estimated delivery, as it writes it (ISO 8601 date or date-time). */
  estimatedDelivery?: string | null;
  /** The carrier product priced. */
  product?: string;
}

/** A parcel to track, with what the store kept of it at creation (nothing but the number for numbers shipped elsewhere). */
export interface ParcelToTrack {
  trackingNumber: string;
  /** The carrier's own id of the parcel where it tracks by that id (Baselinker's package id), as `createShipment` gave it. */
  carrierRef?: string;
  /** The carrier's id of the parcel's shipment (`providerShipmentId`). */
  providerShipmentId?: string;
}

/** One value a setting may take, with the carrier's name for it. */
export interface SettingOption {
  value: string;
  name: string;
}

/** One tracking event as the carrier reported it, with the standard status its raw code means. */
export interface TrackingEventFromCarrier {
  /** The carrier's raw code, as text. */
  code: string;
  /** The carrier's own wording of the code. */
  text: string | null;
  /** Null when the adapter's table does not know the code (the tracking service applies SPEC §3.2 then). */
  status: TrackingStatus | null;
  location: string | null;
  description: string | null;
  /** Unix ms. */
  occurredAt: number;
}

/** What the carrier knows of one number: not found, or its events (oldest first). */
export type TrackResult =
  | { trackingNumber: string; found: false }
  | { trackingNumber: string; found: true; events: TrackingEventFromCarrier[] };

export interface CarrierContext {
  /** Stable key for per-channel caches (OAuth tokens). */
  channelId: string;
  log: Logger;
  clock: Clock;
  /** Time limit of each carrier call (default 30 s). */
  timeoutMs?: number;
  /** Waits between polls of an asynchronous carrier (default: real timers). */
  sleep?: (ms: number) => Promise<unknown>;
  /** The person's grant of a channel whose provider has `userAuthorization` (absent for other providers). */
  grant?: UserGrantAccess;
}

/** OAuth2 tokens as a carrier's token endpoint hands them out. */
export interface UserTokens {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
}

/** What a carrier's device-authorization endpoint answered (RFC 8628 §3.2). */
export interface DeviceCodeIssued {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string | null;
  expiresInSeconds: number;
  intervalSeconds: number;
}

/** One poll of the token endpoint during a device flow (RFC 8628 §3.5). */
export type DeviceFlowPoll =
  | { state: 'pending' }
  | { state: 'slow_down' }
  | { state: 'denied'; message: string }
  | { state: 'expired' }
  | { state: 'granted'; tokens: UserTokens };

/**
 * A carrier whose API acts for a person (Allegro): the device flow that connects a channel, and the refresh of the
 * tokens packdesk stores for it. packdesk stores the tokens sealed, polls, refreshes one at a time and never shows them.
 */
export interface UserAuthorization {
  /** Asks the carrier for a device and user code; a refused app (client id/secret) throws CarrierRefusedError on `settings.<key>`. */
  startDeviceFlow(settings: ChannelSettings, ctx: CarrierContext): Promise<DeviceCodeIssued>;
  pollDeviceFlow(settings: ChannelSettings, deviceCode: string, ctx: CarrierContext): Promise<DeviceFlowPoll>;
  /** New tokens for a refresh token; GrantRevokedError when the carrier no longer honours it. */
  refresh(settings: ChannelSettings, refreshToken: string, ctx: CarrierContext): Promise<UserTokens>;
}

/** An adapter's handle on the channel's stored grant. */
export interface UserGrantAccess {
  /**
   * A valid access token, refreshed first when it is about to expire (one refresh at a time, across workers and
   * stations). Throws AuthorizationRequiredError when no person has authorised the channel or the grant was revoked.
   */
  accessToken(): Promise<string>;
  /** The carrier refused `token` before its expiry: the next accessToken() refreshes it. */
  refused(token: string): Promise<void>;
}

export interface ProviderDefinition {
  code: string;
  name: string;
  regions: readonly string[];
  /** Production and sandbox base URLs; `baseUrl` in settings overrides both. */
  baseUrls: { production: string; sandbox?: string };
  capabilities: ProviderCapabilities;
  /** Where a channel's settings take a capability away (One: cancel, when packages are sent for processing at creation). */
  channelCapabilities?(settings: ChannelSettings): CapabilitiesWithdrawn;
  /** Provider-specific settings; `sandboxMode` and `baseUrl` are added for every provider. */
  settings: readonly SettingSpec[];
  /** Public documentation the provider's code follows. */
  docs: readonly string[];
  adapter: CarrierAdapter;
  /** The carrier's raw tracking codes → standard statuses, read by its adapter and its emulator. */
  trackingCodes: TrackingCodeList;
  /** The carrier's products by code, named as its documents name them, so people read `PRIV — PPL Parcel CZ Private`. */
  products?: Readonly<Record<string, { name: string }>>;
  /** The adapter's pure mappers, checked against the fixtures in the provider's folder. */
  mappers: CarrierMappers;
  /** A shipment this carrier's emulator takes: `packdesk demo --provider` and the contract suite run it. */
  demo: DemoStory;
  /** Loads the carrier's emulator on demand (the daemon never loads it). */
  emulator: () => Promise<ProviderEmulatorFactory>;
  /** Present where the carrier's API acts for a person who authorises packdesk (OAuth2 device flow). */
  userAuthorization?: UserAuthorization;
  /**
   * Shipments created at once, where the carrier documents a limit that calls: per channel (its credentials' request
   * budget) and over all channels. Without one, the creation pool is the limit.
   */
  creationLimits?: { perChannel?: number; perProvider?: number };
}

/** A provider's `fixtures/contract.json`: channel settings for its emulator, a shipment in its region, its refusal. */
export interface DemoStory {
  /** Channel settings without `baseUrl` (the emulator's URL is added). */
  settings: Record<string, string | number | boolean>;
  /** `sender_contact`, `recipient_contact`, `origin_address`, `destination_address` and `cash_on_delivery_currency`. */
  shipment: Record<string, unknown>;
  /** The product stored on a shipment without and with cash on delivery. */
  product: { plain: string; cod: string };
  /** Creation fields the carrier refuses, the field path the refusal lands on, and the fields that fix it. */
  refusal: { patch: Record<string, unknown>; path: string; fix: Record<string, unknown> };
  /**
   * What the carrier charges for the plain 1 kg shipment, where it answers a price: in its creation answer (`carrier`,
   * the default) or its rate API asked once the shipment is created (`quote`).
   */
  price?: { plain: number; currency: string; source?: 'carrier' | 'quote' };
  /** Settings over `settings` of a channel that makes returns, where the demo's account cannot (DPD's Czech business unit has no return product). */
  returnSettings?: Record<string, string | number | boolean>;
}

/**
 * The pure half of an adapter (karrio's habit): our shipment → the carrier's request, the carrier's answers → our
 * results. No I/O, so fixture files shaped like the carrier's documented examples check them in milliseconds.
 */
export interface CarrierMappers {
  /** The carrier's create request (a JSON value, or the XML text for SOAP carriers). */
  createRequest(shipment: ShipmentForCarrier, settings: ChannelSettings): unknown;
  /** The carrier's create answer → the numbers (and label references) the adapter goes on with. */
  parseCreated(body: unknown, shipment: ShipmentForCarrier): unknown;
  /** A refusal → a message and field errors on OUR field paths (e.g. `destination_address.postal_code`). */
  parseRefusal(status: number, body: unknown): { message: string; errors: FieldErrors };
  /** A tracking answer → one result per asked number. */
  parseTracking(body: unknown, asked: readonly string[]): TrackResult[];
}
