import type { FieldErrors } from '../../domain/errors.js';
import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp, jsonOrUndefined } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { warsawTime } from '../local-time.js';
import type { CarrierContext } from '../types.js';
import type { BaselinkerAddOrder, BaselinkerPackageRequest } from './request.js';
import { blockToken, takeRequestSlot } from './request-budget.js';
import {
  baselinkerFailure, parseRefusal, type BaselinkerAnswer, type BaselinkerLabelAnswer, type BaselinkerOrderAdded,
  type BaselinkerPackageCreated, type BaselinkerStatusHistory,
} from './response.js';

/** One endpoint for every method (s0rus/baselinker-js `BASELINKER_API_URL`); Base.com publishes no sandbox. */
export const BASELINKER_BASE_URLS = { production: 'https://api.baselinker.com' };
const CONNECTOR = 'connector.php';
/** How long a blocked token waits when Base.com's message names no time. */
const DEFAULT_BLOCK_MS = 60_000;

/** A refusal, with Base.com's error code for the callers that tell codes apart. */
export class BaselinkerRefusedError extends CarrierRefusedError {
  constructor(message: string, errors: FieldErrors, readonly code: string) {
    super(message, errors);
  }
}

/** Base.com refused the API token. */
export class BaselinkerCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string, readonly code: string) {
    super(`Baselinker refused the credentials: ${reason}`, { shipping_channel_id: [`Baselinker refused the channel's API token: ${reason}`] });
  }
}

export interface BaselinkerOrderFound {
  order_id: number;
  extra_field_1?: string;
}

export interface BaselinkerOrderPackage {
  package_id: number;
  courier_package_nr: string;
  courier_code?: string;
}

/** A field of a courier's pickup form (getRequestParcelPickupFields). */
export interface BaselinkerPickupField {
  id: string;
  type: string;
}

/** The packages of a pickup or protocol: by number, which every parcel has (runRequestParcelPickup, getProtocol). */
export interface BaselinkerPackagesAt {
  courier_code: string;
  package_numbers: string[];
  account_id?: number;
}

export interface BaselinkerNamedOption {
  value: string;
  name: string;
}

/** "Query limit exceeded, token blocked until 2022-05-03 17:15:34" (Warsaw time), as clients quote it. */
function blockedUntil(message: string, now: number): number {
  const until = /(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$/.exec(message)?.[1];
  const at = until ? warsawTime.parse(until) : undefined;
  return at !== undefined && at > now ? at : now + DEFAULT_BLOCK_MS;
}

/**
 * The only Baselinker code that does network I/O: one method per API method, each a form POST of `method` and JSON
 * `parameters` to connector.php with the token in `X-BLToken` (s0rus/baselinker-js `src/client.ts`).
 */
export class BaselinkerClient {
  private readonly http: CarrierHttp;

  constructor(private readonly settings: { apiToken: string; sandboxMode: boolean; baseUrl?: string }, private readonly ctx: CarrierContext) {
    this.http = new CarrierHttp('baselinker', resolveBaseUrl({ name: 'Baselinker', baseUrls: BASELINKER_BASE_URLS }, settings), ctx, [settings.apiToken]);
  }

  private async call<T extends BaselinkerAnswer>(method: string, parameters: object): Promise<T> {
    const token = this.settings.apiToken;
    await takeRequestSlot(token, this.ctx);
    const res = await this.http.call('POST', CONNECTOR, {
      headers: { 'x-bltoken': token, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ method, parameters: JSON.stringify(parameters) }),
    });
    const answer = jsonOrUndefined<T>(res);
    if (res.status !== 200 || typeof answer !== 'object' || answer === null) {
      throw new CarrierTransientError(`Baselinker answered ${method} with HTTP ${res.status} and no answer it could read`);
    }
    const failure = baselinkerFailure(answer);
    if (!failure) return answer;
    if (failure.kind === 'credentials') throw new BaselinkerCredentialsRefused(failure.message, failure.code);
    if (failure.kind === 'blocked') {
      const until = blockedUntil(failure.message, this.ctx.clock.now());
      blockToken(token, until);
      throw new CarrierTransientError(`Baselinker blocked the API token: ${failure.message}`, until - this.ctx.clock.now());
    }
    if (failure.kind === 'transient') throw new CarrierTransientError(`Baselinker could not answer ${method} now: ${failure.message}`);
    const { message, errors } = parseRefusal(res.status, answer);
    throw new BaselinkerRefusedError(message, errors, failure.code);
  }

  async couriers(): Promise<BaselinkerNamedOption[]> {
    const answer = await this.call<BaselinkerAnswer & { couriers?: { code: string; name: string }[] }>('getCouriersList', {});
    return (answer.couriers ?? []).map((c) => ({ value: c.code, name: c.name }));
  }

  async courierAccounts(courierCode: string): Promise<BaselinkerNamedOption[]> {
    const answer = await this.call<BaselinkerAnswer & { accounts?: { id: number; name: string }[] }>('getCourierAccounts', { courier_code: courierCode });
    return (answer.accounts ?? []).map((a) => ({ value: String(a.id), name: a.name }));
  }

  async orderStatuses(): Promise<BaselinkerNamedOption[]> {
    const answer = await this.call<BaselinkerAnswer & { statuses?: { id: number; name: string }[] }>('getOrderStatusList', {});
    return (answer.statuses ?? []).map((s) => ({ value: String(s.id), name: s.name }));
  }

  /** The options of the courier form's `service` field (getCourierFields), if it has one. */
  async courierServices(courierCode: string): Promise<BaselinkerNamedOption[]> {
    const answer = await this.call<BaselinkerAnswer & { fields?: { id: string; options?: Record<string, string> }[] }>('getCourierFields', { courier_code: courierCode });
    const service = (answer.fields ?? []).find((f) => f.id === 'service');
    return Object.entries(service?.options ?? {}).map(([value, name]) => ({ value, name }));
  }

  async addOrder(order: BaselinkerAddOrder): Promise<number> {
    return Number((await this.call<BaselinkerOrderAdded>('addOrder', order)).order_id);
  }

  async deleteOrders(orderIds: readonly number[]): Promise<void> {
    await this.call('deleteOrders', { order_ids: orderIds });
  }

  /** Orders added from `dateFrom` (unix seconds) on, at most 100 an answer, read on from `idFrom` (getOrders). */
  async orders(filter: { dateFrom: number; email?: string; idFrom?: number }): Promise<BaselinkerOrderFound[]> {
    const answer = await this.call<BaselinkerAnswer & { orders?: BaselinkerOrderFound[] }>('getOrders', {
      date_from: filter.dateFrom, get_unconfirmed_orders: true,
      ...(filter.email ? { filter_email: filter.email } : {}), ...(filter.idFrom !== undefined ? { id_from: filter.idFrom } : {}),
    });
    return answer.orders ?? [];
  }

  createPackage(orderId: number, request: BaselinkerPackageRequest): Promise<BaselinkerPackageCreated> {
    return this.call('createPackage', { order_id: orderId, ...request });
  }

  async orderPackages(orderId: number): Promise<BaselinkerOrderPackage[]> {
    return (await this.call<BaselinkerAnswer & { packages?: BaselinkerOrderPackage[] }>('getOrderPackages', { order_id: orderId })).packages ?? [];
  }

  label(courierCode: string, packageId: number): Promise<BaselinkerLabelAnswer> {
    return this.call('getLabel', { courier_code: courierCode, package_id: packageId });
  }

  /** Removes the package in Base.com and at the courier, where the courier's API allows it. */
  async deletePackage(courierCode: string, packageNumber: string): Promise<void> {
    await this.call('deleteCourierPackage', { courier_code: courierCode, package_number: packageNumber });
  }

  statusHistory(packageIds: readonly number[]): Promise<BaselinkerStatusHistory> {
    return this.call('getCourierPackagesStatusHistory', { package_ids: packageIds });
  }

  async pickupFields(courierCode: string): Promise<BaselinkerPickupField[]> {
    return (await this.call<BaselinkerAnswer & { fields?: BaselinkerPickupField[] }>('getRequestParcelPickupFields', { courier_code: courierCode })).fields ?? [];
  }

  /** Books the courier for the packages; Base.com answers only the courier's pickup number. */
  async requestPickup(at: BaselinkerPackagesAt, fields: { id: string; value: string }[]): Promise<string> {
    return String((await this.call<BaselinkerAnswer & { pickup_number?: string }>('runRequestParcelPickup', { ...at, fields })).pickup_number ?? '');
  }

  /** The courier's hand-over protocol of the packages, a pdf or html file (base64). */
  protocol(at: BaselinkerPackagesAt): Promise<BaselinkerAnswer & { extension?: string; protocol?: string }> {
    return this.call('getProtocol', at);
  }
}
