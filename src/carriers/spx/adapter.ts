import { mergeLabels } from '../../labels/index.js';
import { CarrierRefusedError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type { CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ShipmentForCarrier, ValidationOutcome } from '../types.js';
import { SpxClient, SpxCredentialsRefused } from './client.js';
import { spxCreateRequest } from './request.js';
import { parseCreated, parseTracking } from './response.js';
import { spxSettings } from './settings.js';

/** SP Express refuses too many ids at once (3002) without publishing the figure: 50 per call is our own cap. */
const SPX_TRACK_BATCH = 50;

interface SpxProgress {
  /** Set before the create call and cleared once SP Express answered: still set means the answer was lost. */
  sendingSince?: number;
}

/** One package's label: SP Express may give several (sp-express/php-sdk README); one is kept byte-exact. */
async function labelOf(labels: readonly string[]): Promise<Uint8Array> {
  const parts = labels.map((l) => Buffer.from(l, 'base64'));
  return parts.length === 1 ? parts[0]! : (await mergeLabels('pdf', parts)).content;
}

/**
 * SP Express can neither find an order by our reference nor take an idempotency key: a create call whose answer is
 * lost after SP Express took it (a timeout, a dropped connection, a 5xx) is sent again and SP Express holds the order
 * twice. The log names the reference to look for in SP Express's panel when that may have happened.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = spxSettings.parse(settings);
  const request = spxCreateRequest(s, parsed);
  const client = new SpxClient(parsed, ctx);
  if ((ctx.progress.load() as SpxProgress | null)?.sendingSince !== undefined) {
    ctx.log.warn({ shipmentId: s.id, ref: request.package.ref }, 'an earlier SP Express create call got no answer: SP Express may hold this order twice');
  }
  const answer = await markedSend(ctx, undefined, async () => parseCreated(await client.create(parsed.productType, request)));
  await ctx.progress.save({});
  if (answer.state === 'label_failed') {
    await client.cancel(answer.packageIds).catch(() => undefined);
    throw new CarrierRefusedError(answer.message, { shipment: [answer.message] });
  }
  if (answer.parcels.length !== s.parcels.length) {
    await client.cancel(answer.parcels.map((p) => p.trackingNumber)).catch(() => undefined);
    throw new CarrierRefusedError(`SP Express returned ${answer.parcels.length} packages for ${s.parcels.length} parcels`);
  }
  const parcels = [];
  for (const p of answer.parcels) parcels.push({ trackingNumber: p.trackingNumber, label: await labelOf(p.labels) });
  return { providerShipmentId: parcels[0]!.trackingNumber, product: parsed.productType, parcels };
}

export const spxAdapter: CarrierAdapter = {
  async validate(settings, ctx): Promise<ValidationOutcome> {
    const parsed = spxSettings.parse(settings);
    if (parsed.productType === 'non-routing' && !parsed.operator) {
      return { ok: false, message: 'SP Express non-routing shipments need an operator', errors: { 'settings.operator': ['required when productType is non-routing'] } };
    }
    try {
      await new SpxClient(parsed, ctx).checkCredentials();
      return { ok: true };
    } catch (err) {
      if (!(err instanceof SpxCredentialsRefused)) throw err;
      const refused = [`refused by SP Express: ${err.reason}`];
      return { ok: false, message: err.message, errors: { 'settings.login': refused, 'settings.apiKey': refused } };
    }
  },

  createShipment,

  async cancel(shipment, settings, ctx) {
    await new SpxClient(spxSettings.parse(settings), ctx).cancel(shipment.trackingNumbers);
  },

  async track(parcels, settings, ctx) {
    const trackingNumbers = parcels.map((p) => p.trackingNumber);
    const client = new SpxClient(spxSettings.parse(settings), ctx);
    const results = [];
    for (let i = 0; i < trackingNumbers.length; i += SPX_TRACK_BATCH) {
      const asked = trackingNumbers.slice(i, i + SPX_TRACK_BATCH);
      results.push(...parseTracking(await client.track(asked), asked));
    }
    return results;
  },
  trackBatchSize: SPX_TRACK_BATCH,

  // SP Express publishes no tracking-page address; this one is inferred from its site (https://sp.express).
  trackingUrl: (n) => `https://sp.express/tracking?number=${encodeURIComponent(n)}`,
  // Package ids have 15 digits (sp-express/php-sdk README: `cancel(['483231127136528'])`).
  trackingNumberPattern: /^\d{15}$/,
};
