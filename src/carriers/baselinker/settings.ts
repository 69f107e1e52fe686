import { defineSettings } from '../define-settings.js';

/**
 * Base.com (Baselinker) API credentials and courier options: the token of `X-BLToken`, the courier and account of
 * `createPackage` (getCouriersList, getCourierAccounts), the order status of `addOrder` (getOrderStatusList), and the
 * courier form's service (getCourierFields). Sources: https://api.baselinker.com/?method=createPackage, `addOrder`.
 */
export const baselinkerSettings = defineSettings({
  apiToken: {
    type: 'string', required: true, secret: true,
    description: 'Base.com API token (Account → My account → API), sent as the X-BLToken header',
  },
  // createPackage: courier_code varchar(20)
  courierCode: { type: 'string', required: true, listed: true, maxLength: 20, description: 'Courier code in Base.com, from getCouriersList (e.g. dhl)' },
  accountId: { type: 'integer', listed: true, description: 'Courier account id, from getCourierAccounts; without it Base.com uses the courier\'s first account' },
  orderStatusId: { type: 'integer', required: true, listed: true, description: 'Order status of the orders packdesk adds for its shipments, from getOrderStatusList' },
  service: { type: 'string', listed: true, description: 'Option id of the courier form\'s `service` field (getCourierFields), where the courier has one' },
  pointService: {
    type: 'string', listed: true,
    description: 'Option id of the courier form\'s `service` field for shipments to a pickup point or locker, where the courier has a separate one (the point goes on the order)',
  },
  packageDescription: { type: 'string', default: 'Goods', description: 'What the parcels contain (courier field package_description, and the order line)' },
});

export type BaselinkerSettings = ReturnType<typeof baselinkerSettings.parse>;
