/**
 * InPost's ShipX API (Poland) as a local server, following ShipX's documentation (dokumentacja-inpost.atlassian.net,
 * space PL) and michalbiarda/shipx-php-sdk's methods: a Bearer token of the organization, shipments created in the
 * simplified mode (`created`, InPost's purchase under way, `confirmed` with the label bought from the next read on),
 * the organization's list (`created_at_gteq`, `sort_by`, paged), labels in PDF (A6 or normal), ZPL and EPL from
 * `confirmed` on, tracking by number, the cancel ShipX allows before the purchase only, the public point list,
 * dispatch orders with their printout, price calculation (emulator-prices.ts), and returns (`is_return`) by courier to
 * the organization. Refusals in ShipX's shape `{status, error, message, details}`.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { LabelFormat } from '../../domain/labels.js';
import { layoutA4 } from '../../labels/index.js';
import { ANONYMOUS, bearerToken, isBadCredential, requireCaller } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel, type EmulatedLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedParcel, type EmulatedShipment } from '../emulator/shipments.js';
import { renderTextDocument } from '../emulator/text-pdf.js';
import { INPOST_LOCKER_SERVICE, INPOST_PRODUCTS, INPOST_TRACKING } from './codes.js';
import { InpostPoints, pointView } from './emulator-points.js';
import { calculatePrices } from './emulator-prices.js';
import { checkDispatchOrder, checkShipment, type InpostEmulatedShipmentRequest } from './emulator-validation.js';

type InpostShipment = EmulatedShipment<InpostEmulatedShipmentRequest>;

const VALIDATION = 'There are some validation errors. Check details object for more info.';
/** ShipX numbers: 24 digits (its examples 622111081631876319900026, 664920617630552011718863). */
const NUMBER_PREFIX = '6649206176305520';
/** A new shipment is `created`; the first read finds InPost's purchase under way, the next the label bought (about a second on the sandbox). */
const PURCHASE_STEPS = ['created', 'offer_selected', 'confirmed'];
/** Where a locker parcel's way forks from a courier's: out for delivery, to the Paczkomat or to the door. */
const OUT_FOR_DELIVERY = 'out_for_delivery';
/** The organization every token owns here; it receives a return that names no receiver. */
const ORGANIZATION_NAME = 'Sklep (emulator)';

interface EmulatedDispatchOrder {
  id: number;
  owner: string;
  status: string;
  shipments: string[];
  comment: string | null;
  address: Record<string, unknown>;
  createdAt: number;
}

function refusal(reply: FastifyReply, status: number, error: string, message: string, details: unknown = {}): FastifyReply {
  return reply.code(status).send({ status, error, message, details });
}

const iso = (ms: number) => new Date(ms).toISOString();

/** ShipX's answer to a missing or wrong token (a 401 with `error="invalid_token"`). */
function refuseToken(reply: FastifyReply): FastifyReply {
  return reply.code(401).header('WWW-Authenticate', 'Bearer realm="api-shipx", error="invalid_token"')
    .send({ status: 401, error: 'token_invalid', message: 'Token is missing or invalid.', details: {} });
}

export function createInpostEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const shipments = new EmulatedShipments<InpostEmulatedShipmentRequest>(clock, INPOST_TRACKING, (e) => ({ status: e.code, origin_status: null, agency: null, datetime: iso(e.at) }));
  const nextSuffix = numberSequence(clock, { prefix: '', digits: 8 });
  let nextId = 14_000_000 + (Math.floor(clock.now() / 1000) % 1_000_000) * 10;
  let nextOrderId = 880_000;
  const points = new InpostPoints();
  /** Reads of a shipment so far, which move it along PURCHASE_STEPS. */
  const reads = new Map<string, number>();
  const canceled = new Set<string>();
  const orders = new Map<number, EmulatedDispatchOrder>();
  const orderOf = (shipmentId: string) => [...orders.values()].find((o) => o.status !== 'canceled' && o.shipments.includes(shipmentId));

  const purchaseStatus = (s: InpostShipment) => (canceled.has(s.id) ? 'canceled' : PURCHASE_STEPS[Math.min(reads.get(s.id) ?? 0, PURCHASE_STEPS.length - 1)]!);
  const isConfirmed = (s: InpostShipment) => purchaseStatus(s) === 'confirmed';
  /** A bought shipment's status is its first parcel's newest. */
  const statusOf = (s: InpostShipment) => (isConfirmed(s) ? shipments.lastCode(s.parcels[0]!) : purchaseStatus(s));
  const isLocker = (s: InpostShipment) => s.request.service === INPOST_LOCKER_SERVICE;

  const shipmentView = (s: InpostShipment, base: string) => {
    const bought = isConfirmed(s);
    const { request } = s;
    return {
      href: `${base}/v1/shipments/${s.id}`,
      id: Number(s.id),
      status: statusOf(s),
      tracking_number: bought ? s.parcels[0]!.number : null,
      service: request.service,
      reference: request.reference,
      comments: request.comments,
      is_return: request.isReturn,
      receiver: request.receiver,
      sender: request.sender,
      parcels: s.parcels.map((p, i) => ({
        id: p.index, ...(request.parcels[i]?.template ? { template: request.parcels[i]!.template } : {}),
        weight: { amount: request.parcels[i]?.weightKg ?? 25, unit: 'kg' }, tracking_number: bought ? p.number : null, is_non_standard: false,
      })),
      custom_attributes: { sending_method: request.sendingMethod, ...(request.targetPoint ? { target_point: request.targetPoint } : {}) },
      cod: { amount: request.cod, currency: 'PLN' },
      insurance: { amount: request.insurance, currency: 'PLN' },
      additional_services: [],
      offers: [{ id: Number(s.id) * 10, status: bought ? 'bought' : 'selected', service: { id: request.service }, carrier: { id: isLocker(s) ? 'inpost_locker' : 'inpost_courier' } }],
      created_at: iso(s.createdAt),
      updated_at: iso(clock.now()),
    };
  };

  const trackingView = (s: InpostShipment, parcel: EmulatedParcel) => ({
    tracking_number: parcel.number,
    type: s.request.service,
    service: s.request.service,
    status: shipments.lastCode(parcel),
    custom_attributes: s.request.targetPoint ? { target_machine_id: s.request.targetPoint } : {},
    tracking_details: [...parcel.events].reverse().map((e: EmulatedEvent) => ({ status: e.code, origin_status: null, agency: null, datetime: iso(e.at) })),
    expected_flow: [],
    created_at: iso(s.createdAt),
    updated_at: iso(parcel.events[parcel.events.length - 1]!.at),
  });

  const labelContent = (s: InpostShipment, parcel: EmulatedParcel): EmulatedLabel => {
    const r = s.request;
    const who = (p: Record<string, unknown> | null) => (p ? [p.company_name, [p.first_name, p.last_name].filter(Boolean).join(' ')].filter(Boolean).map(String) : []);
    const where = (p: Record<string, unknown> | null) => {
      const a = (p?.address ?? null) as Record<string, string> | null;
      return a ? [`${a.street} ${a.building_number}`, `${a.post_code} ${a.city}`] : [];
    };
    const point = r.targetPoint ? points.get(r.targetPoint) : undefined;
    const receiver = r.receiver ?? { company_name: ORGANIZATION_NAME };
    return {
      carrier: 'InPost',
      trackingNumber: parcel.number,
      parcelIndex: parcel.index,
      parcelCount: s.parcels.length,
      reference: r.reference,
      product: `${r.isReturn ? 'ZWROT · ' : ''}${r.service}${r.targetPoint ? ` ${r.targetPoint}` : ''}${r.parcels[parcel.index - 1]?.template ? ` (${r.parcels[parcel.index - 1]!.template})` : ''}`,
      sender: [...who(r.sender), ...where(r.sender)],
      recipient: [...who(receiver), ...(point ? [`Paczkomat ${point.name}`, `${point.street} ${point.houseNumber}`, `${point.postalCode} ${point.city}`] : where(receiver)), String(receiver.phone ?? '')],
      cod: r.cod !== null ? { amount: r.cod.toFixed(2), currency: 'PLN' } : undefined,
    };
  };

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
      if (err.statusCode && err.statusCode < 500) return refusal(reply, 400, 'invalid_json', 'The request body is not valid JSON.');
      return refusal(reply, 500, 'internal_server_error', 'Internal server error.');
    });
    app.setNotFoundHandler((_request, reply) => refusal(reply, 404, 'resource_not_found', 'Resource not found.'));

    const callerOf = requireCaller(app, (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      if (token && !isBadCredential(token)) return token;
      void refuseToken(reply);
      return undefined;
    });
    /** The token's organization: the caller owns an organization of any id it names (a `bad…` token is refused above). */
    const ownerOf = (request: FastifyRequest, organization?: string) => `${callerOf(request)}:${organization ?? ''}`;
    const organizationOf = (request: FastifyRequest, reply: FastifyReply): string | undefined => {
      const { organization } = request.params as { organization: string };
      if (/^[1-9]\d{0,17}$/.test(organization)) return ownerOf(request, organization);
      void refusal(reply, 404, 'resource_not_found', 'Resource not found.');
      return undefined;
    };
    /** A shipment of any organization of the caller's token. */
    const owned = (request: FastifyRequest, id: string) => {
      const s = shipments.all().find((x) => x.id === id);
      return s && s.owner.startsWith(`${callerOf(request)}:`) ? s : undefined;
    };
    const baseOf = (request: FastifyRequest) => `${request.protocol}://${request.headers.host}/${code}`;

    app.get('/v1/organizations/:organization', async (request, reply) => {
      const owner = organizationOf(request, reply);
      if (!owner) return reply;
      const { organization } = request.params as { organization: string };
      return { href: `${baseOf(request)}/v1/organizations/${organization}`, id: Number(organization), name: ORGANIZATION_NAME, status: 'active', services: Object.keys(INPOST_PRODUCTS) };
    });

    app.post('/v1/organizations/:organization/shipments', async (request, reply) => {
      const owner = organizationOf(request, reply);
      if (!owner) return reply;
      const check = checkShipment(request.body);
      if (!check.ok) return refusal(reply, 400, 'validation_failed', VALIDATION, check.details);
      const r = check.value;
      if (r.targetPoint) {
        const point = points.get(r.targetPoint);
        // a point that is not there, closed, or without payments for a COD parcel (inferred keys beside does_not_exist)
        const key = !point ? 'does_not_exist' : !point.open ? 'invalid_box_machine_status' : r.cod !== null && !point.cashOnDelivery ? 'invalid_box_machine_function' : undefined;
        if (key) return refusal(reply, 400, 'validation_failed', VALIDATION, { custom_attributes: [{ target_point: [key] }] });
      }
      const id = String(nextId++);
      const s = shipments.add({
        owner, id, referenceId: r.reference, product: r.service, labelFormat: 'pdf', request: r,
        numbers: r.parcels.map(() => NUMBER_PREFIX + nextSuffix()),
      });
      reads.set(id, 0);
      return reply.code(201).header('location', `${baseOf(request)}/v1/shipments/${id}`).send(shipmentView(s, baseOf(request)));
    });

    app.post('/v1/organizations/:organization/shipments/calculate', async (request, reply) => {
      if (!organizationOf(request, reply)) return reply;
      const answer = calculatePrices(request.body);
      return answer.ok ? answer.prices : refusal(reply, 400, 'validation_failed', VALIDATION, answer.details);
    });

    app.get('/v1/organizations/:organization/shipments', async (request, reply) => {
      const owner = organizationOf(request, reply);
      if (!owner) return reply;
      const q = request.query as Record<string, string | undefined>;
      const since = q.created_at_gteq === undefined ? undefined : /^\d+$/.test(q.created_at_gteq) ? Number(q.created_at_gteq) * 1000 : Date.parse(q.created_at_gteq);
      if (since !== undefined && Number.isNaN(since)) return refusal(reply, 400, 'invalid_parameter', 'Provided unsupported value to parameter (created_at_gteq)');
      const perPage = Math.min(100, Math.max(1, Number(q.per_page ?? 25) || 25));
      const page = Math.max(1, Number(q.page ?? 1) || 1);
      // cancelled shipments leave the list; the default order is id descending
      let listed = shipments.all().filter((s) => s.owner === owner && !canceled.has(s.id) && (since === undefined || s.createdAt >= since));
      listed = q.sort_by === 'created_at' && q.sort_order !== 'desc' ? [...listed].sort((a, b) => a.createdAt - b.createdAt) : [...listed].reverse();
      return {
        href: `${baseOf(request)}/v1/organizations/${(request.params as { organization: string }).organization}/shipments`,
        count: listed.length, page, per_page: perPage,
        items: listed.slice((page - 1) * perPage, page * perPage).map((s) => shipmentView(s, baseOf(request))),
      };
    });

    app.get('/v1/shipments/:id', async (request, reply) => {
      const { id } = request.params as { id: string };
      const s = owned(request, id);
      if (!s) return refusal(reply, 404, 'resource_not_found', 'Resource not found.');
      const view = shipmentView(s, baseOf(request));
      reads.set(id, (reads.get(id) ?? 0) + 1);
      return view;
    });

    app.get('/v1/shipments/:id/label', async (request, reply) => {
      const { id } = request.params as { id: string };
      const s = owned(request, id);
      if (!s) return refusal(reply, 404, 'resource_not_found', 'Resource not found.');
      if (!isConfirmed(s)) {
        return refusal(reply, 400, 'invalid_action', 'shipment_status_incorrect', { action: 'get_label', shipment_status: purchaseStatus(s) });
      }
      const q = request.query as { format?: string; type?: string };
      const format = (q.format ?? 'pdf').toLowerCase();
      if (!['pdf', 'zpl', 'epl'].includes(format)) return refusal(reply, 400, 'validation_failed', VALIDATION, { format: ['invalid'] });
      if (q.type !== undefined && !['normal', 'A6'].includes(q.type)) return refusal(reply, 400, 'validation_failed', VALIDATION, { type: ['invalid'] });
      const bytes = await shipments.document(s, format as LabelFormat, (parcel) => renderLabel(format as LabelFormat, labelContent(s, parcel)));
      if (format !== 'pdf') return reply.type(format === 'zpl' ? 'text/plain; charset=utf-8' : 'application/octet-stream').send(bytes);
      // without type=A6 a locker label is ShipX's A4 page
      const normal = q.type !== 'A6' && isLocker(s);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${s.request.service}.pdf"`).send(normal ? await layoutA4(bytes) : bytes);
    });

    app.delete('/v1/shipments/:id', async (request, reply) => {
      const { id } = request.params as { id: string };
      const s = owned(request, id);
      if (!s) return refusal(reply, 404, 'resource_not_found', 'Resource not found.');
      const status = purchaseStatus(s);
      // 18153504: only a shipment in created or offers_prepared is cancelled
      if (status !== 'created' && status !== 'offers_prepared') {
        return refusal(reply, 400, 'invalid_action', `Action (cancel) can not be taken on shipment with status (${statusOf(s)}).`, { action: 'cancel', shipment_status: statusOf(s) });
      }
      canceled.add(id);
      return reply.code(204).send();
    });

    // no token is needed, but one that is sent is checked
    app.get('/v1/tracking/:number', ANONYMOUS, async (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      if (request.headers.authorization !== undefined && (!token || isBadCredential(token))) return refuseToken(reply);
      const { number } = request.params as { number: string };
      const found = shipments.parcel(number);
      if (!found || !isConfirmed(found.shipment)) return refusal(reply, 404, 'resource_not_found', 'Resource not found.');
      return trackingView(found.shipment, found.parcel);
    });

    app.get('/v1/points', ANONYMOUS, async (request) => {
      const q = request.query as Record<string, string | undefined>;
      const perPage = Math.min(500, Math.max(1, Number(q.per_page ?? 25) || 25));
      const page = Math.max(1, Number(q.page ?? 1) || 1);
      const found = points.search(q);
      return {
        href: `${baseOf(request)}/v1/points`, count: found.length, page, per_page: perPage, total_pages: Math.ceil(found.length / perPage),
        items: found.slice((page - 1) * perPage, page * perPage).map((p) => pointView(p, baseOf(request))),
      };
    });

    app.get('/v1/points/:name', ANONYMOUS, async (request, reply) => {
      const point = points.get((request.params as { name: string }).name);
      return point ? pointView(point, baseOf(request)) : refusal(reply, 404, 'resource_not_found', 'Resource not found.');
    });

    const orderView = (o: EmulatedDispatchOrder, base: string) => ({
      href: `${base}/v1/dispatch_orders/${o.id}`, id: o.id, status: o.status, address: o.address,
      shipments: o.shipments.map((id) => ({ href: `${base}/v1/shipments/${id}`, id: Number(id), tracking_number: shipments.all().find((s) => s.id === id)?.parcels[0]?.number ?? null })),
      comments: o.comment ? [{ id: o.id, comment: o.comment, created_at: iso(o.createdAt) }] : [],
      created_at: iso(o.createdAt), updated_at: iso(o.createdAt),
    });

    app.post('/v1/organizations/:organization/dispatch_orders', async (request, reply) => {
      const owner = organizationOf(request, reply);
      if (!owner) return reply;
      const check = checkDispatchOrder(request.body);
      if (!check.ok) return refusal(reply, 400, 'validation_failed', VALIDATION, check.details);
      const ids = check.value.shipments.map(String);
      const problems = ids.flatMap((id) => {
        const s = shipments.all().find((x) => x.id === id && x.owner === owner);
        if (!s) return [`id_${id}_does_not_exist`];
        if (!isConfirmed(s)) return [`id_${id}_not_confirmed`];
        if (s.request.sendingMethod !== 'dispatch_order') return [`id_${id}_invalid_sending_method`];
        return orderOf(id) ? [`id_${id}_already_dispatched`] : [];
      });
      if (problems.length > 0) return refusal(reply, 400, 'validation_failed', VALIDATION, { shipments: problems });
      const order: EmulatedDispatchOrder = { id: nextOrderId++, owner, status: 'new', shipments: ids, comment: check.value.comment, address: check.value.address, createdAt: clock.now() };
      orders.set(order.id, order);
      return reply.code(201).send(orderView(order, baseOf(request)));
    });

    app.get('/v1/organizations/:organization/dispatch_orders', async (request, reply) => {
      const owner = organizationOf(request, reply);
      if (!owner) return reply;
      const { shipment_id: shipmentId } = request.query as { shipment_id?: string };
      const listed = [...orders.values()].filter((o) => o.owner === owner && (shipmentId === undefined || o.shipments.includes(shipmentId)));
      return { href: `${baseOf(request)}/v1/dispatch_orders`, count: listed.length, page: 1, per_page: 25, items: listed.map((o) => orderView(o, baseOf(request))) };
    });

    app.get('/v1/organizations/:organization/dispatch_orders/printouts', async (request, reply) => {
      const owner = organizationOf(request, reply);
      if (!owner) return reply;
      const { dispatch_order_id: id } = request.query as { dispatch_order_id?: string };
      const order = orders.get(Number(id));
      if (!order || order.owner !== owner) return refusal(reply, 404, 'resource_not_found', 'Resource not found.');
      const held = order.shipments.map((sid) => shipments.all().find((s) => s.id === sid)!);
      const a = order.address as Record<string, string>;
      const pdf = await renderTextDocument([
        { text: `InPost — Zlecenie odbioru nr ${order.id}`, bold: true, size: 14 },
        `Utworzone ${iso(order.createdAt)} · status ${order.status}`,
        { gap: 0.5 }, { text: 'Adres odbioru', bold: true }, `${a.street} ${a.building_number}`, `${a.post_code} ${a.city}`,
        ...(order.comment ? [`Uwagi: ${order.comment}`] : []),
        { gap: 0.5 }, { text: 'Numer przesyłki   Przesyłka   Usługa   Pobranie', bold: true },
        ...held.flatMap((s) => s.parcels.map((p, i) => `${p.number}   ${s.id}   ${s.request.service}${i === 0 && s.request.cod !== null ? `   ${s.request.cod.toFixed(2)} PLN` : ''}`)),
        { gap: 0.5 }, { text: `Przesyłek: ${held.length} · Paczek: ${held.reduce((n, s) => n + s.parcels.length, 0)}`, bold: true },
        { gap: 3 }, '....................................            ....................................',
        'Podpis nadawcy                                               Podpis kuriera',
      ]);
      return reply.type('application/pdf').send(pdf);
    });
  };

  return {
    code,
    routes,
    // a locker parcel waits in its Paczkomat (ready_to_pickup) before it is collected; courier parcels go to the door
    advance: (trackingNumber, to) => {
      const found = shipments.parcel(trackingNumber);
      if (!found || !isLocker(found.shipment) || shipments.lastStatus(found.parcel) === 'ready_for_pickup') return shipments.advance(trackingNumber, to);
      if (to === undefined && shipments.lastCode(found.parcel) === OUT_FOR_DELIVERY) return shipments.advance(trackingNumber, 'ready_for_pickup');
      return to === 'delivered' ? shipments.collectAtPoint(trackingNumber) : shipments.advance(trackingNumber, to);
    },
    shipments: () => shipments.records((s) => ({
      organization: s.owner.split(':').pop(),
      shipmentId: s.id,
      status: statusOf(s),
      cancelled: canceled.has(s.id),
      service: s.request.service,
      isReturn: s.request.isReturn,
      reference: s.request.reference,
      comments: s.request.comments,
      targetPoint: s.request.targetPoint,
      sendingMethod: s.request.sendingMethod,
      cod: s.request.cod,
      insurance: s.request.insurance,
      templates: s.request.parcels.map((p) => p.template),
      receiver: s.request.receiver,
      dispatchOrder: orderOf(s.id)?.id ?? null,
    })),
    // organization tokens do not expire
    expireTokens: () => {},
    reset: () => {
      shipments.reset();
      reads.clear();
      canceled.clear();
      orders.clear();
    },
    faultResponse: (status) => ({
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(status === 429
        ? { status, error: 'too_many_requests', message: 'Too many requests.', details: {} }
        : { status, error: 'internal_server_error', message: 'Internal server error.', details: {} }),
    }),
  };
}
