import type { TrackingCode, TrackingCodeList } from '../codes.js';

/** DHL Parcel Poland's code lists, read by the adapter and the emulator. */

/**
 * `service.product` codes of DHL24 WebAPI2 (serviceDefinition.html) with the heaviest piece each takes. Cash on
 * delivery is no product: it is the `collectOnDelivery` switch of the same product. The 31.5 kg of AH, PR, 09, 12,
 * EK and PI is DHL's price list as karrio records it (modules/connectors/dhl_poland/.../services.csv); DW, SP and
 * CP share it by inference; CM carries pallets (1000 kg, inferred).
 */
export const DHL_PL_PRODUCTS = {
  AH: { name: 'DHL Parcel Polska (domestic)', maxWeightKg: 31.5 },
  PR: { name: 'DHL Parcel Premium', maxWeightKg: 31.5 },
  '09': { name: 'DHL Parcel 9 (domestic by 9:00)', maxWeightKg: 31.5 },
  '12': { name: 'DHL Parcel 12 (domestic by 12:00)', maxWeightKg: 31.5 },
  DW: { name: 'DHL Parcel evening delivery', maxWeightKg: 31.5 },
  SP: { name: 'Delivery to a DHL POP point', maxWeightKg: 31.5 },
  EK: { name: 'DHL Parcel Connect', maxWeightKg: 31.5 },
  PI: { name: 'DHL Parcel International', maxWeightKg: 31.5 },
  CP: { name: 'DHL Parcel Connect Plus', maxWeightKg: 31.5 },
  CM: { name: 'DHL Parcel Connect Plus pallet', maxWeightKg: 1000 },
} as const;

export type DhlPlProduct = keyof typeof DHL_PL_PRODUCTS;
export const DHL_PL_PRODUCT_CODES = Object.keys(DHL_PL_PRODUCTS) as DhlPlProduct[];

/**
 * The return services of createShipmentReturn (createShipmentReturn.html `serviceType`): ZK a domestic return, ZC a
 * Connect return from abroad in the EU.
 */
export const DHL_PL_RETURN_SERVICES = { domestic: 'ZK', connect: 'ZC' } as const;
export type DhlPlReturnService = (typeof DHL_PL_RETURN_SERVICES)[keyof typeof DHL_PL_RETURN_SERVICES];

/** `labelType` of getLabels (itemToPrint.html): BLP the A6 label as PDF, ZBLP the same label in ZPL for 203 dpi. */
export const DHL_PL_LABEL_TYPES = { pdf: 'BLP', zpl: 'ZBLP' } as const;

/**
 * Every status DHL Parcel Poland's tracking shows for service parcel-pl, with DHL's English wording (DHL's status
 * list as karrio vendors it: modules/connectors/mydhl/vendors/status_1.csv, rows `parcel-pl`). `next` is the usual
 * path the emulator walks. DHL has no event for a shipment removed with deleteShipments: `DELETED` is packdesk's own
 * code for it, used only by the emulator's records.
 */
export const DHL_PL_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: 'EDWP',
  cancelled: 'DELETED',
  codes: {
    EDWP: { name: 'DHL received electronic shipment data. Information will be updated after Sender hands out shipment for transport', status: 'created', next: ['DWP'] },
    DELETED: { name: 'Shipment deleted by the sender before hand-over (deleteShipments)', status: 'cancelled' },
    DWP: { name: 'Shipment accepted at DHL shipping terminal', status: 'in_transit', next: ['SORT'] },
    SP_DWP: { name: 'Shipment sent from DHL POP is waiting to be collected by DHL courier', status: 'in_transit', next: ['SP_PU'] },
    SP_PU: { name: 'Shipment picked up by DHL courier from DHL POP', status: 'in_transit', next: ['SORT'] },
    SORT: { name: 'Shipment under processing in sorting depot', status: 'in_transit', next: ['LP', 'SP_DW', 'LW'] },
    LW: { name: 'Shipment in transport', status: 'in_transit', next: ['LP'] },
    LW_PL: { name: 'Shipment on its way to Poland', status: 'in_transit', next: ['WEJPL'] },
    WEJPL: { name: 'Shipment arrived in Poland', status: 'in_transit', next: ['SORT'] },
    WYJPL: { name: 'Shipment left Poland', status: 'in_transit', next: ['EDB'] },
    LP: { name: 'Shipment arrived in branch office', status: 'in_transit', next: ['LK', 'BCZ'] },
    BCZ: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    TRM: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    TRM_X: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    WER: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    ZID: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    ZMA: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    ZOS: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    LIK: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    SP_ATDSP: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['SP_DW'] },
    ZWW_KRYZ: { name: 'Shipment ready to be delivered on the next working day', status: 'in_transit', next: ['LK'] },
    EDB: { name: 'Shipment accepted for customs clearance in the country of delivery', status: 'in_transit', next: ['EDC'] },
    EDC: { name: 'Shipment has been cleared at customs', status: 'in_transit', next: ['LP'] },
    EXA: { name: 'Shipment entered customs clearance', status: 'in_transit', next: ['EXC'] },
    EXC: { name: 'Shipment released from customs', status: 'in_transit', next: ['WYJPL'] },
    SEC: { name: 'Shipment in customs clearance', status: 'in_transit', next: ['EDC'] },
    SP_DW: { name: 'Your shipment is on its way to DHL POP point', status: 'in_transit', next: ['DOR_SP', 'SP_CAP'] },
    LK: { name: 'Shipment handed out to courier for delivery', status: 'out_for_delivery', next: ['DOR', 'AWI', 'DOR_SAS'] },
    KWC: { name: 'Shipment ready for delivery today', status: 'out_for_delivery', next: ['DOR', 'AWI'] },
    TRM2: { name: 'Shipment arrived at DHL Terminal.Delivery to the recipient is planned today at the time agreed with recipient', status: 'out_for_delivery', next: ['DOR', 'AWI'] },
    DOR: { name: 'Shipment was delivered to recipient', status: 'delivered' },
    DOR_LOK: { name: 'Shipment was delivered to entered location', status: 'delivered' },
    DOR_OTH: { name: 'Shipment was delivered to another person', status: 'delivered' },
    DOR_OWL: { name: 'Shipment picked up by Recipient in person in Sorting Depot/Customer Service Point', status: 'delivered' },
    DOR_POC: { name: 'Shipment was delivered to post office', status: 'delivered' },
    DOR_RDZ: { name: 'Shipment was delivered to family member', status: 'delivered' },
    DOR_SAS: { name: 'Shipment was delivered to the entered alternative recipient (neighbour)', status: 'delivered' },
    PPDOR: { name: 'Shipment was picked up in DHL Customer Service Point', status: 'delivered' },
    SP_DOR: { name: 'Shipment has been collected from DHL POP', status: 'delivered' },
    PNK: { name: 'Incomplete shipment', status: 'delivered_with_exception' },
    DOR_SP: { name: 'Shipment arrived to DHL POP', status: 'ready_for_pickup', next: ['SP_DSP'] },
    SP_DSP: { name: 'Shipment is waiting to be collected from DHL POP', status: 'ready_for_pickup', next: ['SP_DOR', 'ZWR_ZB'] },
    SP_PA: { name: 'Shipment is waiting to be collected from DHL POP', status: 'ready_for_pickup', next: ['SP_DOR', 'ZWR_ZB'] },
    SP_KP: { name: 'Customer was notified about the date and place for picking up shipment from DHL POP', status: 'ready_for_pickup', next: ['SP_DOR', 'ZWR_ZB'] },
    OWL: { name: 'Shipment to be picked up by customer in DHL terminal', status: 'ready_for_pickup', next: ['DOR_OWL', 'ZWR_ZB'] },
    OWL_KP: { name: 'Customer was notified about the date and place for picking up shipment', status: 'ready_for_pickup', next: ['DOR_OWL', 'ZWR_ZB'] },
    OWL_ONO: { name: 'Shipment to be picked up by customer', status: 'ready_for_pickup', next: ['DOR_OWL', 'ZWR_ZB'] },
    OWL_PS_KP: { name: 'Customer was notified about the date and place for picking up shipment', status: 'ready_for_pickup', next: ['PPDOR', 'ZWR_ZB'] },
    OWL_SP_KP: { name: 'Customer was notified about the date and place for picking up shipment/parcel locker filled/to be picked up in Service Point', status: 'ready_for_pickup', next: ['SP_DOR', 'ZWR_ZB'] },
    AWI: { name: 'Delivery failed.Recipient was absent upon delivery.', status: 'on_hold', next: ['LK', 'OWL', 'ZWR'] },
    AWI_DP2: { name: 'DHL courier did not find the recipient under the entered delivery address.Delivery at the time agreed with recipient', status: 'on_hold', next: ['LK'] },
    AWI_NSP: { name: 'We will attempt another delivery today or within the next two business days.', status: 'on_hold', next: ['LK'] },
    AWI_ONU: { name: 'Authorised recipient was absent upon delivery', status: 'on_hold', next: ['LK', 'ZWR'] },
    AWI_OZ: { name: 'No access to the premises or housing estate closed', status: 'on_hold', next: ['LK', 'ZWR'] },
    AWI_ROD: { name: 'No supporting document provided for ROD', status: 'on_hold', next: ['LK', 'ZWR'] },
    AWI_SAS: { name: 'DHL courier did not find alternative recipient (neighbour) under the entered delivery address', status: 'on_hold', next: ['LK'] },
    AWI_SPCAP: { name: 'Shipment directed to another SP due to original overflow', status: 'on_hold', next: ['SP_DW'] },
    AN: { name: 'Invalid address for delivery. Please contact DHL Parcel Customer Service Department at 42 6 345 345.', status: 'on_hold', next: ['LK', 'ZWR_AN'] },
    AN_RA: { name: 'Invalid or incomplete address for delivery', status: 'on_hold', next: ['LK', 'ZWR_AN'] },
    AN_SAS: { name: 'Invalid address for alternative recipient (neighbour) was entered.It is incomplete or not in the direct neighbourhood of the recipient.', status: 'on_hold', next: ['LK'] },
    ZWW: { name: 'Delivery failed. Shipment awaiting consecutive delivery cycle.', status: 'on_hold', next: ['LK'] },
    ZWW_NSP: { name: 'Delivery to DHL POP is planned on the next working day', status: 'on_hold', next: ['SP_DW'] },
    SP_CAP: { name: 'Delivery to DHL POP was not possible.There will be another delivery attempt', status: 'on_hold', next: ['SP_DW'] },
    SP_ZAM: { name: 'Shipment delivery to DHL POP was suspended.Please contact DHL Parcel Customer Service Department at 42 6 345 345', status: 'on_hold', next: ['SP_DW', 'ZWR'] },
    BRG: { name: 'Delivery was suspended until fees are paid by recipient', status: 'on_hold', next: ['LK', 'ZWR'] },
    BRG_SAS: { name: 'Alternative recipient (neighbour) did not pay for transport and/or goods', status: 'on_hold', next: ['LK', 'ZWR'] },
    CC: { name: 'There occurred difficulties in shipment processing.To get detailed information', status: 'on_hold', next: ['LK', 'ZWR'] },
    POW: { name: 'Notification has been sent to recipient', status: 'on_hold', next: ['OWL_KP'] },
    OP: { name: 'Recipient refused to pick up shipment', status: 'on_hold', next: ['ZWR_OP'] },
    OP_OTH: { name: 'Recipient refused to pick up shipment', status: 'on_hold', next: ['ZWR_OP'] },
    OP_PNK: { name: 'Recipient refused to pick up shipment', status: 'on_hold', next: ['ZWR_OP'] },
    OP_SAS: { name: 'Alternative neighbour recipient refused to pick up shipment', status: 'on_hold', next: ['ZWR_OP'] },
    OP_USK: { name: 'Recipient refused to pick up shipment', status: 'on_hold', next: ['ZWR_OP'] },
    OP_USP: { name: 'Recipient refused to pick up shipment', status: 'on_hold', next: ['ZWR_OP'] },
    SP_CN: { name: 'Posting shipment from DHL POP was cancelled. Please contact the Sender', status: 'cancelled' },
    ZWR: { name: 'Shipment will be returned to sender', status: 'returned', next: ['ZWN'] },
    ZWR_AN: { name: 'Shipment will be returned to sender', status: 'returned', next: ['ZWN'] },
    ZWR_OP: { name: 'Shipment will be returned to sender.Delivery was not possible', status: 'returned', next: ['ZWN'] },
    ZWR_WER: { name: 'Shipment will be returned to sender', status: 'returned', next: ['ZWN'] },
    ZWR_ZB: { name: 'DHL courier made two delivery attempts. Time for shipment collection in DHL point has expired.Shipment will be returned to sender', status: 'returned', next: ['ZWN'] },
    ZWR_ZT: { name: 'DHL courier made two delivery attempts. Time for shipment collection in DHL point has expired. Shipment was returned to sender after telephone confirmation', status: 'returned', next: ['ZWN'] },
    ZWN: { name: 'Shipment returned to sender', status: 'returned' },
  },
};
