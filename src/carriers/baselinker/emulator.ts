/**
 * Base.com's connector API as a local server: `POST /connector.php` with a form of `method` and JSON `parameters`,
 * the token in `X-BLToken`, every answer `{status: "SUCCESS", …}` or `{status: "ERROR", error_code, error_message}` with
 * HTTP 200, 100 requests a minute per token. Orders, one connected courier (emulator-courier.ts) with one package per
 * createPackage, labels, status history and deletes, as the method pages of https://api.baselinker.com describe them.
 */
import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isBadCredential, requireCaller } from '../emulator/auth.js';
import type { AdvanceOutcome, AdvanceTarget, EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedShipment } from '../emulator/shipments.js';
import { EmulatedTokens } from '../emulator/tokens.js';
import { warsawTime } from '../local-time.js';
import { BASELINKER_ERRORS, BASELINKER_TRACKING } from './codes.js';
import { COURIER_FORM, EMULATED_ACCOUNTS, EMULATED_COURIER, EMULATED_ORDER_STATUSES, PICKUP_FORM, type CourierPackage } from './emulator-courier.js';
import { renderCourierProtocol } from './emulator-protocol.js';
import { BaselinkerRefusal, refuse, type Params } from './emulator-validation.js';
import { createOrderMethods, type EmulatedOrder } from './emulator-orders.js';

const PER_MINUTE = 100;
/** tracking_status 8, Waiting at point. */
const AT_POINT = '8';
const MAX_HISTORY_IDS = 100;

type EmulatedPackage = EmulatedShipment<CourierPackage & { orderId: number; innerNumber: string }>;

function failure(code: string, message: string): Record<string, string> {
  return { status: 'ERROR', error_code: code, error_message: message };
}

export function createBaselinkerEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const eventView = (e: EmulatedEvent) => ({ tracking_status_date: Math.floor(e.at / 1000), courier_status_code: `DHL-${e.code}`, tracking_status: Number(e.code) });
  const packages = new EmulatedShipments<EmulatedPackage['request']>(clock, BASELINKER_TRACKING, eventView);
  const limits = new EmulatedTokens(clock, 3600, PER_MINUTE);
  /** Deleted packages are gone from Base.com; their parcels keep the Canceled code for the records. */
  const deleted = new Set<string>();
  // a deleted order takes its packages along; a parcel already on its way keeps its last code
  const orders = createOrderMethods(clock, (order) => {
    for (const id of order.packageIds) {
      packages.cancel(packages.byId(order.owner, id)!);
      deleted.add(id);
    }
  });
  /** The courier's pickup number of each package booked for one, by package id. */
  const pickups = new Map<string, string>();
  const nextPickupNumber = numberSequence(clock, { prefix: 'PU', digits: 10 });
  const nextPackageId = numberSequence(clock, { prefix: '77', digits: 8 });
  const nextNumber = numberSequence(clock, { prefix: '6222', digits: 14 });
  const nextInnerNumber = numberSequence(clock, { prefix: '12', digits: 8 });

  const livePackages = (order: EmulatedOrder) => order.packageIds.filter((id) => !deleted.has(id)).map((id) => packages.byId(order.owner, id)!);
  const blockedMessage = (seconds: number) => `Query limit exceeded, token blocked until ${warsawTime.format(clock.now() + seconds * 1000, ' ')}`;

  /** A package of the caller by `package_id` or `package_number`, not deleted. */
  function packageOf(owner: string, params: Params): EmulatedPackage {
    if (params.courier_code !== undefined && params.courier_code !== EMULATED_COURIER.code) refuse(BASELINKER_ERRORS.courierNotFound, `Courier '${String(params.courier_code)}' is not connected to this account`);
    const byNumber = params.package_number !== undefined ? packages.parcel(String(params.package_number), owner)?.shipment : undefined;
    const found = params.package_id !== undefined ? packages.byId(owner, String(params.package_id)) : byNumber;
    if (params.package_id === undefined && params.package_number === undefined) refuse(BASELINKER_ERRORS.parameters, 'Either package_id or package_number is required');
    if (!found || deleted.has(found.id)) refuse(BASELINKER_ERRORS.packageNotFound, 'Package not found');
    return found;
  }

  /** The caller's packages of a pickup or protocol, by `package_ids` or `package_numbers`; any unknown one is refused. */
  function packagesOf(owner: string, params: Params): EmulatedPackage[] {
    const ids = (params.package_ids ?? []) as unknown[];
    const numbers = (params.package_numbers ?? []) as unknown[];
    if (ids.length + numbers.length === 0) refuse(BASELINKER_ERRORS.parameters, 'Either package_ids or package_numbers is required');
    if (params.account_id !== undefined && !EMULATED_ACCOUNTS.some((a) => a.id === Number(params.account_id))) {
      refuse(BASELINKER_ERRORS.courierAccountNotFound, `Courier account ${String(params.account_id)} of courier ${EMULATED_COURIER.code} does not exist`);
    }
    return [...ids.map((id) => ({ package_id: id })), ...numbers.map((n) => ({ package_number: n }))].map((one) => {
      try {
        return packageOf(owner, { courier_code: params.courier_code, ...one });
      } catch (err) {
        if (err instanceof BaselinkerRefusal && err.code === BASELINKER_ERRORS.packageNotFound) refuse(err.code, `Package ${String(Object.values(one)[0])} not found`);
        throw err;
      }
    });
  }

  /** The pickup form's values, each id one of the form's; the date (unix) not before today, Warsaw time. */
  function pickupForm(fields: unknown[]): Map<string, string> {
    const values = new Map<string, string>();
    for (const field of fields) {
      const f = field as { id?: unknown; value?: unknown } | null;
      if (typeof f?.id !== 'string' || (typeof f.value !== 'string' && typeof f.value !== 'number')) refuse(BASELINKER_ERRORS.parameters, 'Each of fields must be an object with an id and a value');
      if (!PICKUP_FORM.fields.some((k) => k.id === f.id)) refuse(BASELINKER_ERRORS.parameters, `Unknown pickup field '${f.id}' of courier ${EMULATED_COURIER.code}`);
      values.set(f.id, String(f.value));
    }
    const date = Number(values.get('pickup_date'));
    if (!Number.isInteger(date) || date <= 0) refuse(BASELINKER_ERRORS.parameters, 'Field pickup_date must be a unix time');
    const day = warsawTime.format(date * 1000).slice(0, 10);
    const today = warsawTime.format(clock.now()).slice(0, 10);
    if (day < today) refuse(BASELINKER_ERRORS.courier, `Courier API error: the pickup date ${day} is in the past`);
    const [from, to] = [values.get('pickup_time_from'), values.get('pickup_time_to')];
    if (from !== undefined && to !== undefined && !(from < to)) refuse(BASELINKER_ERRORS.courier, `Courier API error: the pickup window ${from}–${to} ends before it starts`);
    return values;
  }

  async function labelOf(p: EmulatedPackage): Promise<Buffer> {
    const order = orders.byId(p.owner, p.request.orderId)!;
    const o = order.fields;
    const live = livePackages(order);
    return packages.label(p.parcels[0]!, () => renderLabel(p.labelFormat, {
      carrier: 'DHL · Base.com', trackingNumber: p.parcels[0]!.number, parcelIndex: live.indexOf(p) + 1, parcelCount: live.length,
      reference: String(o.extra_field_2 || o.extra_field_1 || ''), product: p.product,
      sender: [EMULATED_ACCOUNTS.find((a) => a.id === p.request.accountId)!.name, `Base.com courier account ${p.request.accountId}`],
      recipient: [o.delivery_fullname, o.delivery_company, o.delivery_address, `${o.delivery_postcode} ${o.delivery_city}`, o.delivery_country_code, o.phone]
        .map((l) => String(l ?? '')).filter(Boolean),
      cod: p.request.cod !== null ? { amount: p.request.cod.toFixed(2), currency: String(o.currency) } : undefined,
    }));
  }

  const courierMethods: Record<string, (owner: string, params: Params) => Promise<Record<string, unknown>> | Record<string, unknown>> = {
    getCouriersList: () => ({ couriers: [EMULATED_COURIER] }),
    getCourierAccounts: (_owner, params) => ({ accounts: params.courier_code === EMULATED_COURIER.code ? EMULATED_ACCOUNTS : [] }),
    getCourierFields: (_owner, params) => {
      if (params.courier_code !== EMULATED_COURIER.code) refuse(BASELINKER_ERRORS.courierNotFound, `Courier '${String(params.courier_code)}' is not connected to this account`);
      return COURIER_FORM;
    },
    getOrderStatusList: () => ({ statuses: EMULATED_ORDER_STATUSES }),
    createPackage: (owner, params) => {
      const order = orders.byId(owner, Number(params.order_id)) ?? refuse(BASELINKER_ERRORS.orderNotFound, `Order ${String(params.order_id)} not found`);
      if (params.courier_code !== EMULATED_COURIER.code) refuse(BASELINKER_ERRORS.courierNotFound, `Courier '${String(params.courier_code)}' is not connected to this account`);
      const pkg = orders.courierPackage(params, order);
      const packageId = nextPackageId();
      const created = packages.add({
        owner, id: packageId, referenceId: String(order.fields.extra_field_1 ?? ''), product: pkg.service, labelFormat: pkg.labelFormat,
        request: { ...pkg, orderId: order.id, innerNumber: nextInnerNumber() }, numbers: [nextNumber()],
      });
      order.packageIds.push(created.id);
      return { package_id: Number(packageId), package_number: created.parcels[0]!.number, courier_inner_number: created.request.innerNumber };
    },
    getOrderPackages: (owner, params) => {
      const order = orders.byId(owner, Number(params.order_id)) ?? refuse(BASELINKER_ERRORS.orderNotFound, `Order ${String(params.order_id)} not found`);
      return {
        packages: livePackages(order).map((p) => {
          const parcel = p.parcels[0]!;
          return {
            package_id: Number(p.id), courier_package_nr: parcel.number, courier_inner_number: p.request.innerNumber, courier_code: EMULATED_COURIER.code,
            courier_other_name: '', account_id: p.request.accountId, tracking_status_date: Math.floor(parcel.events.at(-1)!.at / 1000),
            tracking_delivery_days: 0, tracking_status: Number(packages.lastCode(parcel)), package_type: 0, tracking_url: '', is_return: false,
          };
        }),
      };
    },
    getLabel: async (owner, params) => {
      const p = packageOf(owner, params);
      return { extension: p.labelFormat, label: (await labelOf(p)).toString('base64') };
    },
    getPackageDetails: (owner, params) => {
      const p = packageOf(owner, { package_id: params.package_id });
      const { size, cod } = p.request;
      return {
        package_details: [{
          weight: size.weight, weight_unit: 'kg', length: size.length ?? 0, width: size.width ?? 0, height: size.height ?? 0, size_unit: 'cm',
          size_template: '', is_custom: false, cod_value: cod ?? 0, cod_currency: String(orders.byId(owner, p.request.orderId)!.fields.currency),
          insurance_value: 0, insurance_currency: '', cost_value: 0, cost_currency: '', type: 'package', pickup_date: 0,
        }],
      };
    },
    deleteCourierPackage: (owner, params) => {
      const p = packageOf(owner, params);
      if (packages.cancel(p) === 'not_cancellable') refuse(BASELINKER_ERRORS.courier, 'Courier API error: the parcel is already on its way and cannot be deleted');
      deleted.add(p.id);
      return {};
    },
    getRequestParcelPickupFields: (_owner, params) => {
      if (params.courier_code !== EMULATED_COURIER.code) refuse(BASELINKER_ERRORS.courierNotFound, `Courier '${String(params.courier_code)}' is not connected to this account`);
      return PICKUP_FORM;
    },
    runRequestParcelPickup: (owner, params) => {
      const booked = packagesOf(owner, params);
      pickupForm((params.fields ?? []) as unknown[]);
      for (const p of booked) {
        const earlier = pickups.get(p.id);
        if (earlier) refuse(BASELINKER_ERRORS.courier, `Courier API error: package ${p.parcels[0]!.number} is already in pickup ${earlier}`);
      }
      const pickupNumber = nextPickupNumber();
      for (const p of booked) pickups.set(p.id, pickupNumber);
      return { pickup_number: pickupNumber };
    },
    getProtocol: async (owner, params) => {
      const listed = packagesOf(owner, params);
      const pdf = await renderCourierProtocol(EMULATED_COURIER.name, warsawTime.format(clock.now()).slice(0, 10),
        listed.map((p) => ({ number: p.parcels[0]!.number, weight: p.request.size.weight })));
      return { extension: 'pdf', protocol: pdf.toString('base64') };
    },
    getCourierPackagesStatusHistory: (owner, params) => {
      const ids = params.package_ids as unknown[];
      if (ids.length > MAX_HISTORY_IDS) refuse(BASELINKER_ERRORS.parameters, `At most ${MAX_HISTORY_IDS} package ids at a time`);
      const history: Record<string, unknown[]> = {};
      for (const id of ids.map(String)) {
        const p = packages.byId(owner, id);
        if (p && !deleted.has(p.id)) history[id] = p.parcels[0]!.events.map(eventView);
      }
      return { packages_history: history };
    },
  };

  const routes: FastifyPluginAsync = async (app) => {
    app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/html').send('<h1>404 Not Found</h1>'));
    app.setErrorHandler((_err, _request, reply) => reply.code(200).send(failure(BASELINKER_ERRORS.parameters, 'The request could not be read')));

    const ownerOf = requireCaller(app, (request, reply) => {
      const token = request.headers['x-bltoken'];
      if (typeof token !== 'string' || token === '' || isBadCredential(token)) {
        void reply.send(failure(BASELINKER_ERRORS.badToken, 'Invalid user token'));
        return undefined;
      }
      const owner = createHash('sha256').update(token).digest('hex').slice(0, 16);
      const verdict = limits.countRequest(owner);
      if (!verdict.allowed) {
        void reply.send(failure(BASELINKER_ERRORS.blockedToken, blockedMessage(verdict.retryAfterSeconds)));
        return undefined;
      }
      return owner;
    });

    app.post('/connector.php', async (request: FastifyRequest, reply: FastifyReply) => {
      const form = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const method = typeof form.method === 'string' ? form.method : '';
      try {
        let params: unknown;
        try {
          params = JSON.parse(typeof form.parameters === 'string' && form.parameters !== '' ? form.parameters : '{}');
        } catch {
          refuse(BASELINKER_ERRORS.parameters, 'The parameters are not valid JSON');
        }
        const checked = orders.check(method, params);
        const owner = ownerOf(request);
        const handler = orders.methods[method] ?? courierMethods[method];
        return { status: 'SUCCESS', ...(await handler!(owner, checked)) };
      } catch (err) {
        if (err instanceof BaselinkerRefusal) return reply.send(failure(err.code, err.message));
        throw err;
      }
    });
  };

  /**
   * A package for a point is delivered only once collected there: out of the van its next step is the point (8,
   * Waiting at point), and on its way to `delivered` it waits there.
   */
  const advance = (trackingNumber: string, to?: AdvanceTarget): AdvanceOutcome => {
    const found = packages.parcel(trackingNumber);
    if (!found?.shipment.request.pointId) return packages.advance(trackingNumber, to);
    if (to === undefined && BASELINKER_TRACKING.codes[packages.lastCode(found.parcel)]?.next?.includes(AT_POINT)) return packages.advance(trackingNumber, 'ready_for_pickup');
    if (to !== 'delivered' || found.parcel.events.some((e) => e.code === AT_POINT)) return packages.advance(trackingNumber, to);
    return packages.collectAtPoint(trackingNumber);
  };

  return {
    code,
    routes,
    advance,
    shipments: () => orders.all().map((order) => {
      const live = livePackages(order);
      const cancelled = order.deleted || (order.packageIds.length > 0 && live.length === 0);
      const first = live[0] ?? packages.byId(order.owner, order.packageIds[0] ?? '');
      return {
        referenceId: String(order.fields.extra_field_1 ?? ''), id: String(order.id), product: first?.product ?? null, labelFormat: first?.labelFormat ?? null,
        shipmentNumbers: live.map((p) => p.parcels[0]!.number), packageIds: live.map((p) => Number(p.id)),
        state: order.deleted ? 'Deleted' : cancelled ? 'Cancelled' : EMULATED_ORDER_STATUSES.find((s) => s.id === order.fields.order_status_id)?.name ?? 'Active',
        cancelled, createdAt: new Date(order.createdAt).toISOString(),
        parcels: live.map((p) => ({ number: p.parcels[0]!.number, code: packages.lastCode(p.parcels[0]!), status: packages.lastStatus(p.parcels[0]!) })),
        cod: live.reduce((sum, p) => sum + (p.request.cod ?? 0), 0) || null,
        pickupPoint: order.fields.delivery_point_id || null,
        reference: order.fields.extra_field_2 || null,
        recipient: { name: order.fields.delivery_fullname, postcode: order.fields.delivery_postcode, city: order.fields.delivery_city, phone: order.fields.phone },
      };
    }),
    // Base.com API tokens do not expire: they live until the account owner deletes them
    expireTokens: () => {},
    reset: () => {
      packages.reset();
      orders.reset();
      deleted.clear();
      pickups.clear();
      limits.reset();
    },
    faultResponse: (status) => ({
      contentType: 'application/json',
      body: JSON.stringify(status === 429 ? failure(BASELINKER_ERRORS.blockedToken, blockedMessage(1)) : failure(BASELINKER_ERRORS.internal, 'Internal server error')),
    }),
  };
}
