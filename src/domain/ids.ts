import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 string (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const ID_PREFIXES = {
  account: 'acc', apiKey: 'key', channel: 'ch', shipment: 'sh', order: 'or', parcel: 'pcl', trackingParcel: 'tp',
  trackingUpdate: 'tpu', webhook: 'wh', event: 'evt', deliveryLog: 'whl', printer: 'prn', printJob: 'pj',
  watchedFolder: 'wf', import: 'imp', job: 'job', deskSession: 'ds', daemon: 'dmn', dispatch: 'dp', shippingRule: 'rule',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Source of new ids; injected so tests can predict them. */
export type IdSource = (kind: IdKind) => string;

export const randomIds: IdSource = (kind) => `${ID_PREFIXES[kind]}_${randomBase62(20)}`;
