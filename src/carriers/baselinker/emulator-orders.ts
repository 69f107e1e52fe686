/**
 * The Baselinker emulator's order manager: addOrder, deleteOrders and getOrders as their method pages at
 * https://api.baselinker.com describe them, and the parameter names every emulated method takes.
 */
import type { Clock } from '../../domain/clock.js';
import { numberSequence } from '../emulator/numbers.js';
import { BASELINKER_ERRORS } from './codes.js';
import { checkCourierPackage, EMULATED_ORDER_STATUSES, type CourierPackage } from './emulator-courier.js';
import {
  ADD_ORDER, checkParams, COURIER_ONLY, CREATE_PACKAGE, DELETE_ORDERS, DELETE_PACKAGE, GET_ORDERS, NOTHING, ONE_PACKAGE, ORDER_ONLY,
  ORDER_PRODUCT, PACKAGE_DETAILS, PICKUP, PROTOCOL, refuse, STATUS_HISTORY, text, type Params, type ParamSpec,
} from './emulator-validation.js';

/** The parameters of every method the emulator knows; any other method is refused. */
const METHOD_PARAMS: Readonly<Record<string, ParamSpec>> = {
  addOrder: ADD_ORDER, deleteOrders: DELETE_ORDERS, getOrders: GET_ORDERS, getOrderStatusList: NOTHING,
  getCouriersList: NOTHING, getCourierAccounts: COURIER_ONLY, getCourierFields: COURIER_ONLY, createPackage: CREATE_PACKAGE,
  getOrderPackages: ORDER_ONLY, getLabel: ONE_PACKAGE, getPackageDetails: PACKAGE_DETAILS, deleteCourierPackage: DELETE_PACKAGE,
  getCourierPackagesStatusHistory: STATUS_HISTORY, getRequestParcelPickupFields: COURIER_ONLY, runRequestParcelPickup: PICKUP,
  getProtocol: PROTOCOL,
};

/** getOrders answers at most this many orders (its method page). */
const ORDERS_PER_ANSWER = 100;
const MAX_DELETED_ORDERS = 1000;
/** The addOrder fields whose length its page limits and packdesk fills from the user's input: varchar(n). */
const FIELD_LENGTHS: Readonly<Record<string, number>> = { extra_field_1: 50, extra_field_2: 50, delivery_point_id: 40 };

export interface EmulatedOrder {
  id: number;
  owner: string;
  fields: Params;
  products: Params[];
  createdAt: number;
  /** Package ids in the order they were created, deleted ones included. */
  packageIds: string[];
  deleted: boolean;
}

type OrderMethod = (owner: string, params: Params) => Record<string, unknown>;

function checkLengths(params: Params): void {
  for (const [key, length] of Object.entries(FIELD_LENGTHS)) {
    if (text(params[key]).length > length) refuse(BASELINKER_ERRORS.parameters, `Parameter '${key}' is longer than ${length} characters`);
  }
}

/** `onDeleted` lets the packages of a deleted order go with it. */
export function createOrderMethods(clock: Clock, onDeleted: (order: EmulatedOrder) => void) {
  let orders: EmulatedOrder[] = [];
  const nextOrderId = numberSequence(clock, { prefix: '163', digits: 8 });
  const byId = (owner: string, id: number) => orders.find((o) => o.owner === owner && o.id === id && !o.deleted);

  const orderView = (o: EmulatedOrder) => ({
    order_id: o.id, shop_order_id: 0, external_order_id: '', order_source: 'personal', order_source_id: 0, order_source_info: '-',
    order_status_id: Number(o.fields.order_status_id), date_add: Number(o.fields.date_add), date_confirmed: Number(o.fields.date_add),
    date_in_status: Math.floor(o.createdAt / 1000), confirmed: true,
    ...Object.fromEntries(Object.entries(o.fields).filter(([k]) => !['order_status_id', 'date_add', 'custom_source_id'].includes(k))),
    products: o.products.map((p, i) => ({ ...p, order_product_id: o.id * 100 + i })),
  });

  const methods: Record<string, OrderMethod> = {
    addOrder: (owner, params) => {
      if (!EMULATED_ORDER_STATUSES.some((s) => s.id === Number(params.order_status_id))) {
        refuse(BASELINKER_ERRORS.orderStatusNotFound, `Order status ${String(params.order_status_id)} does not exist`);
      }
      checkLengths(params);
      const products = (params.products as unknown[]).map((p) => checkParams('addOrder (products)', p, ORDER_PRODUCT));
      const { products: _listed, ...fields } = params;
      const order = { id: Number(nextOrderId()), owner, fields: { ...fields, order_status_id: Number(params.order_status_id) }, products, createdAt: clock.now(), packageIds: [], deleted: false };
      orders.push(order);
      return { order_id: order.id };
    },
    deleteOrders: (owner, params) => {
      const ids = (params.order_ids as unknown[]).map(Number);
      if (ids.length > MAX_DELETED_ORDERS) refuse(BASELINKER_ERRORS.parameters, `At most ${MAX_DELETED_ORDERS} orders at a time`);
      const found = ids.flatMap((id) => byId(owner, id) ?? []);
      for (const order of found) {
        order.deleted = true;
        onDeleted(order);
      }
      return { deleted_order_ids: found.map((o) => o.id) };
    },
    getOrders: (owner, params) => {
      const email = text(params.filter_email).toLowerCase();
      const found = orders
        .filter((o) => o.owner === owner && !o.deleted)
        .filter((o) => params.order_id === undefined || o.id === Number(params.order_id))
        .filter((o) => params.date_from === undefined || Number(o.fields.date_add) >= Number(params.date_from))
        .filter((o) => params.id_from === undefined || o.id >= Number(params.id_from))
        .filter((o) => params.status_id === undefined || Number(o.fields.order_status_id) === Number(params.status_id))
        .filter((o) => !email || text(o.fields.email).toLowerCase() === email)
        .sort((a, b) => a.id - b.id)
        .slice(0, ORDERS_PER_ANSWER);
      return { orders: found.map(orderView) };
    },
  };

  return {
    methods,
    byId,
    /** Every order ever added, deleted ones included. */
    all: (): readonly EmulatedOrder[] => orders,
    /** The method's parameters as its page names them; an unknown method is refused. */
    check(method: string, params: unknown): Params {
      const spec = Object.hasOwn(METHOD_PARAMS, method) ? METHOD_PARAMS[method]! : refuse(BASELINKER_ERRORS.unknownMethod, `Unknown method '${method}'`);
      return checkParams(method, params, spec);
    },
    /** The courier reads its recipient from the order. */
    courierPackage: (params: Params, order: EmulatedOrder): CourierPackage => checkCourierPackage(params, order.fields),
    reset: () => {
      orders = [];
    },
  };
}
