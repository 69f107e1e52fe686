import type { CarrierProduct, TrackingCode, TrackingCodeList } from '../codes.js';

/** Baselinker's code lists, read by the adapter and the emulator. */

/**
 * The `tracking_status` codes of getCourierPackagesStatusHistory and getOrderPackages, Base.com's own statuses over
 * every courier's raw codes (https://api.baselinker.com/?method=getCourierPackagesStatusHistory; s0rus/baselinker-js
 * `src/internal/courier-shipments.ts`). This is the whole published list; the standard status of each is packdesk's.
 */
export const BASELINKER_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: '1',
  cancelled: '10',
  codes: {
    0: { name: 'Unknown', status: 'not_recognized' },
    1: { name: 'Courier label created', status: 'created', next: ['2'] },
    2: { name: 'Shipped', status: 'in_transit', next: ['11', '13'] },
    11: { name: 'On the way', status: 'in_transit', next: ['4', '8', '12'] },
    13: { name: 'Transferred abroad', status: 'in_transit', next: ['11'] },
    4: { name: 'Out for delivery', status: 'out_for_delivery', next: ['5', '3', '7'] },
    // the courier could not deliver: it tries again or sends the parcel back
    3: { name: 'Not delivered', status: 'on_hold', next: ['4', '6'] },
    // a notice was left: the parcel waits at the courier's point to be collected
    7: { name: 'Aviso', status: 'ready_for_pickup', next: ['5', '6'] },
    8: { name: 'Waiting at point', status: 'ready_for_pickup', next: ['5', '6'] },
    12: { name: 'Exception (sorting error, other event, complaint)', status: 'on_hold', next: ['11', '6', '9'] },
    5: { name: 'Delivered', status: 'delivered' },
    6: { name: 'Return', status: 'returned' },
    9: { name: 'Lost', status: 'error' },
    10: { name: 'Canceled', status: 'cancelled' },
  },
};

/**
 * The options of the `service` field of the courier the emulator offers (code `dhl`), with its weight limit. A real
 * courier's services come from its getCourierFields form; COD there is a form field (`cod`), so every service carries it.
 */
export const BASELINKER_EMULATED_SERVICES: Readonly<Record<string, CarrierProduct & { maxWeightKg: number; toPoint?: true }>> = {
  standard: { name: 'DHL Parcel', cod: true, maxWeightKg: 31.5 },
  express: { name: 'DHL Parcel 12:00', cod: true, maxWeightKg: 20 },
  // to the order's delivery_point_id: a DHL POP shop or DHL BOX locker (the option id and limit are this courier's, inferred)
  pop: { name: 'DHL POP (shop or DHL BOX)', cod: true, maxWeightKg: 25, toPoint: true },
};

/**
 * The `error_code`s of `{status: "ERROR", error_code, error_message}` answers that packdesk tells apart. Base.com
 * publishes no list: ERROR_BLOCKED_TOKEN ("Query limit exceeded, token blocked until …") is seen in many clients,
 * ERROR_USER_ACCOUNT_BLOCKED in Solizion/go-baselinker; the other codes are inferred and are what the emulator answers.
 */
export const BASELINKER_ERRORS = {
  badToken: 'ERROR_BAD_TOKEN',
  accountBlocked: 'ERROR_USER_ACCOUNT_BLOCKED',
  blockedToken: 'ERROR_BLOCKED_TOKEN',
  unknownMethod: 'ERROR_UNKNOWN_METHOD',
  parameters: 'ERROR_PARAMETERS',
  orderNotFound: 'ERROR_ORDER_NOT_FOUND',
  packageNotFound: 'ERROR_PACKAGE_NOT_FOUND',
  courierNotFound: 'ERROR_COURIER_NOT_FOUND',
  courierAccountNotFound: 'ERROR_COURIER_ACCOUNT_NOT_FOUND',
  orderStatusNotFound: 'ERROR_ORDER_STATUS_NOT_FOUND',
  courier: 'ERROR_COURIER',
  internal: 'ERROR_INTERNAL',
} as const;
