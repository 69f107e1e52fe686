/**
 * One by Allegro's (WE|DO's) REST API v2 as a local server, following nuty456/WeDoApi and bridge.intime.cz/doc:
 * HTTP Basic, `POST /package` (optionally sent for processing at once with X-WEDO-Auto-Complete, in a batch of its
 * own), the package list (`sent`, `delivered`, `created_*` filters) and detail with `last_state`, whole-package
 * labels in PDF and ZPL, `DELETE /package` until the package is sent for processing, the batches that send packages
 * for processing (`POST /batch`, `GET /batch/{number}`, its pickup protocol `manifest.pdf` and `labels.pdf`), a
 * courier (`POST /pickup`), `GET /pickup-place`, packages to WEDO POINT pickup places (product PUP), return shipments
 * (`additional_service.reverse_order`), and One's `{message, detail[]}` refusals: 400 for a body it cannot
 * read, 403 for a request against One's rules (restapi.html: "Chyba ve vnitřní logice požadavku … 403 Forbidden").
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { LabelFormat } from '../../domain/labels.js';
import { layoutA4, mergeLabels } from '../../labels/index.js';
import { basicCredentials, isBadCredential, requireCaller } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent } from '../emulator/shipments.js';
import { ONEDELIVERY_TRACKING } from './codes.js';
import { renderManifest } from './emulator-manifest.js';
import { OnedeliveryPoints } from './emulator-points.js';
import { checkBatch, checkPackage, checkPickup, type OnedeliveryEmulatedPackage } from './emulator-validation.js';
import {
  cashOnDeliveryOf, createdView, detailView, labelContent, listedView, newestEvent, recipientLine, stateView, type OnedeliveryShipment,
} from './emulator-views.js';
import { pragueTime } from './response.js';

/** Where a package's way forks: out to the door (IN_DELIVERY) or to its pickup place (STORED). */
const ONEDELIVERY_AT_DEPOT = 'IN_DEPOT';

/** The label layouts of `?format=` (nuty456/WeDoApi `Dimensions.java`); the A4 sheets hold four labels. */
const LAYOUTS = ['label', 'labela6', 'a4_2x2', 'a4', 'a6'];
const A4_LAYOUTS = ['a4_2x2', 'a4'];
/** The emulated account's one pickup place (GET /pickup-place, as nuty456/WeDoApi's test answer shows one). */
const PICKUP_PLACE = {
  name: 'Sklad', code: 'N10001', type: 'COURIER', regular_pickup: true,
  contact: { name: 'Sklad', phone: null, mobile: '+420601111222', email: 'sklad@example.cz' },
  address: { street: 'Skladová', city: 'Praha', postal_code: '11000', building_number: '12', country_code: 'CZ' },
};

/**
 * The courier round a batch goes out with: 17:00 the same day, or the next day's for a batch made later (the README's
 * batch of 21:25 has `transport_date` 17:00 the next day); weekends are not skipped.
 */
const ROUND_HOUR = 17;
/** The window One's depot sets for an ordered courier (inferred: One answers its own `pickup_from`/`pickup_to`, whatever was wished). */
const PICKUP_WINDOW = { from: '13:00:00', to: '16:00:00' };
const DAY_MS = 86_400_000;

/** A batch: the packages it sent for processing, by order number. */
interface EmulatedBatch {
  id: string;
  number: string;
  owner: string;
  packages: string[];
  created: number;
  transportDate: string;
}

function refusal(reply: FastifyReply, status: number, message: string, detail: string[]): FastifyReply {
  return reply.code(status).send({ message, detail });
}

/** `sent`/`delivered` filters take 1 or 0 (restapi.html). */
function flag(value: string | undefined): boolean | undefined {
  return value === '1' ? true : value === '0' ? false : undefined;
}

/** A time of `created_after`/`created_before`: ISO 8601, One's Czech time unless it names its zone. */
function timeOf(value: string): number | undefined {
  return /(Z|[+-]\d{2}:\d{2})$/.test(value) ? (Number.isNaN(Date.parse(value)) ? undefined : Date.parse(value)) : pragueTime.parse(value);
}

export function createOnedeliveryEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const stateIds = new WeakMap<EmulatedEvent, number>();
  let nextStateId = 99_000_000;
  const state = (event: EmulatedEvent) => {
    let id = stateIds.get(event);
    if (id === undefined) stateIds.set(event, (id = nextStateId++));
    return stateView(event, id);
  };
  const shipments = new EmulatedShipments<OnedeliveryEmulatedPackage>(clock, ONEDELIVERY_TRACKING, state);
  // One numbers a package with the customer's prefix (`46F`) and eight digits; its parcels' barcodes repeat it (README)
  const nextOrderNumber = numberSequence(clock, { prefix: '46F', digits: 11 });
  let nextBatchId = 51_000;
  let nextPickupId = 27_000;
  const pad = (n: number) => String(n).padStart(3, '0');
  const barcodesOf = (order: string, count: number) => Array.from({ length: count }, (_, i) => `${order.slice(0, 3)}S${order.slice(3)}*${pad(i + 1)}${pad(count)}`);

  const points = new OnedeliveryPoints();
  const batches = new Map<string, EmulatedBatch>();
  /** The batch each package was sent for processing in: a package goes into one batch only. */
  const batchOfPackage = new Map<string, string>();
  const isSent = (s: OnedeliveryShipment) => batchOfPackage.has(s.id);
  const today = () => pragueTime.format(clock.now()).slice(0, 10);
  /** `IT-46F-20230412212520` (the README's): the customer's prefix and the time made, a second later while one is taken. */
  const batchNumber = (prefix: string) => {
    for (let at = clock.now(); ; at += 1000) {
      const number = `IT-${prefix}-${pragueTime.format(at, '').replace(/\D/g, '')}`;
      if (!batches.has(number)) return number;
    }
  };
  const transportDate = (at: number) => {
    const made = pragueTime.format(at);
    const day = Number(made.slice(11, 13)) < ROUND_HOUR ? made.slice(0, 10) : pragueTime.format(pragueTime.parse(`${made.slice(0, 10)} 12:00:00`)! + DAY_MS).slice(0, 10);
    return `${day} ${ROUND_HOUR}:00:00`;
  };
  /** Sends packages for processing in a new batch: their parcels leave `NEW` for the courier's round. */
  const sendInBatch = (owner: string, packages: readonly OnedeliveryShipment[]): EmulatedBatch => {
    const created = clock.now();
    const batch = {
      id: String(nextBatchId++), number: batchNumber(packages[0]!.id.slice(0, 3)), owner, packages: packages.map((s) => s.id), created, transportDate: transportDate(created),
    };
    batches.set(batch.number, batch);
    for (const s of packages) {
      batchOfPackage.set(s.id, batch.number);
      for (const p of s.parcels) shipments.advance(p.number);
    }
    return batch;
  };
  const document = (s: OnedeliveryShipment, format: Exclude<LabelFormat, 'epl'>) =>
    shipments.document(s, format, (parcel) => renderLabel(format, labelContent(s, parcel)));

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
      if (err.statusCode && err.statusCode < 500) return refusal(reply, 400, 'Bad Request', ['body: not valid JSON']);
      return refusal(reply, 500, 'Internal Server Error', []);
    });
    app.setNotFoundHandler((request, reply) => refusal(reply, 404, 'Not Found', [request.url.split('?')[0]!]));

    const userOf = requireCaller(app, (request, reply) => {
      const basic = basicCredentials(request.headers.authorization);
      if (basic && basic.user && basic.password && !isBadCredential(basic.user, basic.password)) return basic.user;
      void reply.code(401).header('WWW-Authenticate', 'Basic realm="WEDO API"').send({ message: 'Invalid API user or API key', detail: [] });
      return undefined;
    });
    /** The pickup place header names one of the account's places, or is absent (the account's own). */
    const unknownPickupPlace = (request: FastifyRequest) => {
      const place = request.headers['x-wedo-pickupplacecode'];
      return typeof place === 'string' && place !== PICKUP_PLACE.code ? place : undefined;
    };
    const owned = (request: FastifyRequest, orderNumber: string) => shipments.byId(userOf(request), orderNumber);
    const baseOf = (request: FastifyRequest) => `${request.protocol}://${request.headers.host}/${code}`;

    app.get('/pickup-place', async () => ({ wedo: { pickup_places: [PICKUP_PLACE] } }));

    app.post('/package', async (request, reply) => {
      const place = unknownPickupPlace(request);
      if (place) return refusal(reply, 403, 'Unknown pickup place', [`pickup_place: ${place} is not a pickup place of this account`]);
      const check = checkPackage(request.body);
      if (!check.ok) return refusal(reply, 400, check.refusal.message, check.refusal.detail);
      const { pkg } = check;
      const pointRefused = pkg.pup_branch === null ? undefined : points.refusal(pkg.pup_branch, pkg.cash_on_delivery !== null);
      if (pointRefused) return refusal(reply, 403, 'Invalid pickup place', [pointRefused]);
      const orderNumber = nextOrderNumber();
      const shipment = shipments.add({
        owner: userOf(request), id: orderNumber, referenceId: pkg.reference_number2 ?? pkg.reference_number ?? '', product: pkg.product,
        labelFormat: 'pdf', request: pkg, numbers: barcodesOf(orderNumber, pkg.package_count),
      });
      const autoComplete = String(request.headers['x-wedo-auto-complete'] ?? '').toLowerCase();
      // restapi.html: "vytvářené zásilky jsou rovnou odeslány v nové dávce ke zpracování"
      if (autoComplete === 'true' || autoComplete === 'yes') sendInBatch(userOf(request), [shipment]);
      return createdView(shipment);
    });

    app.get('/package', async (request, reply) => {
      const place = unknownPickupPlace(request);
      if (place) return refusal(reply, 403, 'Unknown pickup place', [`pickup_place: ${place} is not a pickup place of this account`]);
      const query = request.query as Record<string, string | undefined>;
      const after = query.created_after === undefined ? undefined : timeOf(query.created_after);
      const before = query.created_before === undefined ? undefined : timeOf(query.created_before);
      if ((query.created_after !== undefined && after === undefined) || (query.created_before !== undefined && before === undefined)) {
        return refusal(reply, 400, 'Invalid filter', ['created_after: an ISO 8601 time expected']);
      }
      const sent = flag(query.sent);
      const delivered = flag(query.delivered);
      return shipments.all()
        .filter((s) => s.owner === userOf(request) && !shipments.isCancelled(s))
        .filter((s) => (after === undefined || s.createdAt >= after) && (before === undefined || s.createdAt <= before))
        .filter((s) => sent === undefined || isSent(s) === sent)
        .map(listedView)
        .filter((row) => delivered === undefined || (row.delivered !== null) === delivered);
    });

    app.get('/package/:orderNumber', async (request, reply) => {
      const { orderNumber } = request.params as { orderNumber: string };
      const s = owned(request, orderNumber);
      if (!s || shipments.isCancelled(s)) return refusal(reply, 404, 'Package not found', [`order_number: ${orderNumber}`]);
      return detailView(s, baseOf(request), state);
    });

    const labels = (format: Exclude<LabelFormat, 'epl'>) => async (request: FastifyRequest, reply: FastifyReply) => {
      const { orderNumber } = request.params as { orderNumber: string };
      const layout = (request.query as { format?: string }).format ?? 'label';
      if (!LAYOUTS.includes(layout)) return refusal(reply, 400, 'Invalid label format', [`format: one of ${LAYOUTS.join(', ')}`]);
      const s = owned(request, orderNumber);
      if (!s || shipments.isCancelled(s)) return refusal(reply, 404, 'Package not found', [`order_number: ${orderNumber}`]);
      const bytes = await document(s, format);
      if (format === 'zpl') return reply.type('application/zpl; charset=utf-8').send(bytes);
      return reply.type('application/pdf').send(A4_LAYOUTS.includes(layout) ? await layoutA4(bytes) : bytes);
    };
    app.get('/package/:orderNumber/labels.pdf', labels('pdf'));
    app.get('/package/:orderNumber/labels.zpl', labels('zpl'));

    app.get('/package/:orderNumber/:barcode/label.pdf', async (request, reply) => {
      const { orderNumber, barcode } = request.params as { orderNumber: string; barcode: string };
      const s = owned(request, orderNumber);
      const parcel = s && !shipments.isCancelled(s) ? s.parcels.find((p) => p.number === barcode) : undefined;
      if (!s || !parcel) return refusal(reply, 404, 'Package not found', [`barcode: ${barcode}`]);
      return reply.type('application/pdf').send(await shipments.label(parcel, () => renderLabel('pdf', labelContent(s, parcel))));
    });

    app.delete('/package/:orderNumber', async (request, reply) => {
      const { orderNumber } = request.params as { orderNumber: string };
      const s = owned(request, orderNumber);
      if (!s) return refusal(reply, 404, 'Package not found', [`order_number: ${orderNumber}`]);
      if (shipments.cancel(s) === 'not_cancellable') {
        return refusal(reply, 403, 'Package already sent for processing', [`order_number: ${orderNumber} can no longer be deleted`]);
      }
      return [{ code: '0', order_number: orderNumber, barcode: [] }];
    });

    app.post('/batch', async (request, reply) => {
      const check = checkBatch(request.body);
      if (!check.ok) return refusal(reply, 400, check.refusal.message, check.refusal.detail);
      const found = check.articles.map((n) => owned(request, n));
      const missing = check.articles.filter((_, i) => !found[i] || shipments.isCancelled(found[i]!));
      if (missing.length > 0) return refusal(reply, 403, 'Package not found', missing.map((n) => `articles: package ${n} not found`));
      const sent = check.articles.filter((n) => batchOfPackage.has(n));
      if (sent.length > 0) {
        return refusal(reply, 403, 'Package already sent for processing', sent.map((n) => `articles: package ${n} is in batch ${batchOfPackage.get(n)} already`));
      }
      const batch = sendInBatch(userOf(request), found as OnedeliveryShipment[]);
      return {
        articles: batch.packages.map((orderNumber) => ({ code: '0', order_number: orderNumber })),
        batch: { protocol_url: `${baseOf(request)}/batch/${batch.number}/manifest.pdf`, id: batch.id, number: batch.number },
      };
    });

    /** The caller's batch, or One's 404 sent. */
    const ownBatch = (request: FastifyRequest, reply: FastifyReply) => {
      const { number } = request.params as { number: string };
      const batch = batches.get(number);
      if (batch && batch.owner === userOf(request)) return batch;
      void refusal(reply, 404, 'Batch not found', [`number: ${number}`]);
      return undefined;
    };
    const packagesOf = (batch: EmulatedBatch) => batch.packages.map((n) => shipments.byId(batch.owner, n)!);

    app.get('/batch/:number', async (request, reply) => {
      const batch = ownBatch(request, reply);
      if (!batch) return reply;
      const { address, contact } = PICKUP_PLACE;
      return {
        transport_date: batch.transportDate,
        sender_contact: {
          city: address.city, depot_email: 'dispecer.praha@wedo.cz', name: PICKUP_PLACE.name, depot_name: 'Praha 01', note: null,
          phone: contact.mobile, street: `${address.street} ${address.building_number}`, postal_code: address.postal_code, customer_name: batch.owner,
        },
        packages: batch.packages,
        labels_pdf: `${baseOf(request)}/batch/${batch.number}/labels.pdf`,
      };
    });

    app.get('/batch/:number/manifest.pdf', async (request, reply) => {
      const batch = ownBatch(request, reply);
      if (!batch) return reply;
      const { address } = PICKUP_PLACE;
      const pdf = await renderManifest({
        number: batch.number, created: pragueTime.format(batch.created, ' '), transportDate: batch.transportDate,
        sender: [batch.owner, PICKUP_PLACE.name, `${address.street} ${address.building_number}`, `${address.postal_code} ${address.city}`],
        packages: packagesOf(batch).map((s) => ({
          orderNumber: s.id, barcodes: s.parcels.map((p) => p.number), recipient: recipientLine(s), weight: s.request.weight, cashOnDelivery: cashOnDeliveryOf(s),
        })),
      });
      return reply.type('application/pdf').send(pdf);
    });

    app.get('/batch/:number/labels.pdf', async (request, reply) => {
      const layout = (request.query as { format?: string }).format ?? 'label';
      if (!LAYOUTS.includes(layout)) return refusal(reply, 400, 'Invalid label format', [`format: one of ${LAYOUTS.join(', ')}`]);
      const batch = ownBatch(request, reply);
      if (!batch) return reply;
      const merged = (await mergeLabels('pdf', await Promise.all(packagesOf(batch).map((s) => document(s, 'pdf'))))).content;
      return reply.type('application/pdf').send(A4_LAYOUTS.includes(layout) ? await layoutA4(merged) : merged);
    });

    app.post('/pickup', async (request, reply) => {
      const place = unknownPickupPlace(request);
      if (place) return refusal(reply, 403, 'Unknown pickup place', [`pickup_place: ${place} is not a pickup place of this account`]);
      const check = checkPickup(request.body);
      if (!check.ok) return refusal(reply, 400, check.refusal.message, check.refusal.detail);
      if (check.date < today()) return refusal(reply, 403, 'Pickup date in the past', [`pickup_date: ${check.date} is in the past`]);
      const { address } = PICKUP_PLACE;
      return {
        pickup_address: { street: address.street, building_number: address.building_number, city: address.city, postal_code: address.postal_code, country_code: address.country_code },
        id: `I${nextPickupId++}`,
        pickup_type: 'IRREGULAR',
        pickup_from: PICKUP_WINDOW.from,
        pickup_to: PICKUP_WINDOW.to,
        created: pragueTime.format(clock.now()),
        is_deletable: true,
      };
    });
  };

  return {
    code,
    routes,
    // One tracks the package: all its parcels move together, and only once a batch sent it for processing; a PUP
    // package is stored at its pickup place and delivered when collected there
    advance: (trackingNumber, to) => {
      const found = shipments.parcel(trackingNumber);
      const held = found?.shipment;
      if (held && !shipments.isCancelled(held) && !isSent(held)) {
        return { kind: 'cannot_advance', reason: `package ${held.id} is not sent for processing: One's courier takes it only after a batch (POST /batch) sends it` };
      }
      if (!held?.request.pup_branch || shipments.lastStatus(found!.parcel) === 'ready_for_pickup') return shipments.advanceWithShipment(trackingNumber, to);
      if (to === undefined && shipments.lastCode(found!.parcel) === ONEDELIVERY_AT_DEPOT) return shipments.advanceWithShipment(trackingNumber, 'ready_for_pickup');
      if (to !== 'delivered') return shipments.advanceWithShipment(trackingNumber, to);
      return shipments.collectAtPoint(trackingNumber, true);
    },
    shipments: () => shipments.records((s) => ({
      apiUser: s.owner,
      orderNumber: s.id,
      state: shipments.isCancelled(s) ? 'CANCELLED' : newestEvent(s).code,
      sentForProcessing: isSent(s),
      batch: batchOfPackage.get(s.id) ?? null,
      referenceNumber: s.request.reference_number,
      comment: s.request.comment,
      weight: s.request.weight,
      value: s.request.value,
      cashOnDelivery: s.request.cash_on_delivery,
      pupBranch: s.request.pup_branch,
      reverseOrder: s.request.reverse_order,
      receiver: s.request.receiver,
      sender: s.request.sender,
    })),
    // Basic auth: there are no tokens to expire
    expireTokens: () => {},
    reset: () => {
      shipments.reset();
      batches.clear();
      batchOfPackage.clear();
    },
    faultResponse: (status) => ({
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(status === 429 ? { message: 'Too Many Requests', detail: [] } : { message: 'Internal Server Error', detail: [] }),
    }),
  };
}
