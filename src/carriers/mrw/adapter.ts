import { splitLabels } from '../../labels/index.js';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type { CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ShipmentForCarrier, TrackResult, ValidationOutcome } from '../types.js';
import { MrwClient, MrwCredentialsRefused } from './client.js';
import { albaranFound, albaranOf, bultoNumbers, trackResults } from './response.js';
import { mrwSettings } from './settings.js';

/** GetEnvios takes one albarán a call and MRW publishes no rate limit: 10 numbers a track call is our own pace. */
const MRW_TRACK_BATCH = 10;

interface MrwProgress {
  /** Set before TransmEnvio and cleared once MRW answered: still set means the answer was lost. */
  sendingSince?: number;
  /** MRW's shipment once created: a later attempt only fetches its label. */
  numeroEnvio?: string;
}

/**
 * Exactly once: our shipment id is the shipment's `Referencia`. After a lost TransmEnvio answer the shipment is
 * first looked for by that reference in TrackingService (GetEnvios, tipoFiltro 1); found, it is used. A shipment
 * MRW made but TrackingService does not list yet is the window left: it would be made a second time. Labels come as
 * one PDF of a page per bulto, cut into one per parcel.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  if (s.labelFormat !== 'pdf') {
    throw new CarrierRefusedError(`MRW prints labels as PDF only, not ${s.labelFormat}`, { label_format: ['MRW: GetEtiquetaEnvio returns PDF labels only'] });
  }
  const parsed = mrwSettings.parse(settings);
  const client = new MrwClient(parsed, ctx);
  const progress = (ctx.progress.load() ?? {}) as MrwProgress;
  let numeroEnvio = progress.numeroEnvio;
  if (numeroEnvio === undefined && progress.sendingSince !== undefined) numeroEnvio = albaranFound(await client.getEnvios({ byReference: s.id }));
  if (numeroEnvio === undefined) {
    const created = await markedSend(ctx, undefined, () => client.transmEnvio(s));
    if (created.state !== 'created') {
      await ctx.progress.save({});
      throw created.state === 'credentials_refused' ? new MrwCredentialsRefused(created.reason) : new CarrierRefusedError(created.message, created.errors);
    }
    numeroEnvio = created.numeroEnvio;
  }
  await ctx.progress.save({ numeroEnvio } satisfies MrwProgress);
  const label = await client.etiquetaEnvio(numeroEnvio);
  if (label.state === 'credentials_refused') throw new MrwCredentialsRefused(label.reason);
  // the shipment exists: a label MRW cannot make yet is asked for again later
  if (label.state === 'refused') throw new CarrierTransientError(label.message);
  const parts = await splitLabels('pdf', label.document, s.parcels.length);
  return {
    providerShipmentId: numeroEnvio,
    product: parsed.serviceCode,
    parcels: bultoNumbers(numeroEnvio, s.parcels.length).map((trackingNumber, i) => ({ trackingNumber, label: parts[i]! })),
  };
}

export const mrwAdapter: CarrierAdapter = {
  /**
   * Delivery at an MRW franchise office ("entrega en franquicia", `EnFranquicia` E). No finder: SAGEC's WSDL has
   * GetPointsByCP and PointsDB, but no public source shows GetPointsByCP's answer, and PointsDB's PuntoDeRedDTO
   * carries no hours, COD or state; MRW checks the office at creation.
   */
  pickupPoints: { types: ['post_office'] },

  /** A label for a shipment that does not exist: MRW names the credentials when they are wrong, the number otherwise. */
  async validate(settings, ctx): Promise<ValidationOutcome> {
    const label = await new MrwClient(mrwSettings.parse(settings), ctx).etiquetaEnvio('000000000000');
    if (label.state !== 'credentials_refused') return { ok: true };
    const refused = [`refused by MRW: ${label.reason}`];
    return {
      ok: false, message: new MrwCredentialsRefused(label.reason).message,
      errors: { 'settings.franchiseCode': refused, 'settings.subscriberCode': refused, 'settings.username': refused, 'settings.password': refused },
    };
  },

  createShipment,

  async cancel(shipment, settings, ctx) {
    const cancelled = await new MrwClient(mrwSettings.parse(settings), ctx).cancelarEnvio(shipment.providerShipmentId);
    if (cancelled.state === 'credentials_refused') throw new MrwCredentialsRefused(cancelled.reason);
    if (cancelled.state === 'refused') throw new CarrierRefusedError(cancelled.message, cancelled.errors);
  },

  // TrackingService tracks the albarán (its WSDL's Seguimiento names no bulto): one GetEnvios per albarán for all its parcels
  async track(parcels, settings, ctx) {
    const trackingNumbers = parcels.map((p) => p.trackingNumber);
    const client = new MrwClient(mrwSettings.parse(settings), ctx);
    const results: TrackResult[] = [];
    for (const albaran of new Set(trackingNumbers.map(albaranOf))) {
      results.push(...trackResults(await client.getEnvios({ byAlbaran: albaran }), trackingNumbers.filter((n) => albaranOf(n) === albaran)));
    }
    return results;
  },
  trackBatchSize: MRW_TRACK_BATCH,

  // MRW's page finds the albarán; the fragment names the parcel (OCA/l10n-spain delivery_mrw `mrw_get_tracking_link`)
  trackingUrl: (n) => `https://www.mrw.es/seguimiento_envios/MRW_resultados_consultas.asp?modo=nacional&envio=${encodeURIComponent(albaranOf(n))}#${encodeURIComponent(n)}`,
  // albarán of 12 (the franchise's 5 digits first: 033050000050, 01400F001137), with the bulto's 3 digits on our parcels
  trackingNumberPattern: /^\d{5}[0-9A-Z]{7}(?:\d{3})?$/,
};
