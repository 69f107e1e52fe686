import type { TrackingCode, TrackingCodeList } from '../codes.js';

/** Packeta's code lists, read by the adapter and the emulator. */

/**
 * `statusCode` of packetStatus / packetTracking (the WSDL's StatusRecord) with Packeta's `codeText`: the codes and
 * texts of the API reference's packet status table (docs.packetery.com "Packet status"), as Packeta's own
 * WooCommerce plugin names them (Zasilkovna/WooCommerce `src/Packetery/Core/Entity/PacketStatus.php`). Packeta
 * names no "out for delivery": handed to the carrier that delivers it to the door (6) stands for it (inferred).
 * 999 "unknown" maps to no status.
 */
export const PACKETA_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: '1',
  cancelled: '11',
  codes: {
    1: { name: 'received data', status: 'created', next: ['12', '2'] },
    12: { name: 'collected', status: 'in_transit', next: ['2'] },
    2: { name: 'arrived', status: 'in_transit', next: ['3'] },
    3: { name: 'prepared for departure', status: 'in_transit', next: ['4'] },
    4: { name: 'departed', status: 'in_transit', next: ['6', '5'] },
    // the packet waits at its pickup point or Z-BOX; the recipient had an SMS
    5: { name: 'ready for pickup', status: 'ready_for_pickup', next: ['7', '9'] },
    6: { name: 'handed to carrier', status: 'out_for_delivery', next: ['7', '16', '9'] },
    16: { name: 'delivery attempt', status: 'on_hold', next: ['6', '9'] },
    17: { name: 'rejected by recipient', status: 'in_transit', next: ['9'] },
    7: { name: 'delivered', status: 'delivered' },
    9: { name: 'posted back', status: 'in_transit', next: ['10'] },
    10: { name: 'returned', status: 'returned' },
    11: { name: 'cancelled', status: 'cancelled' },
    14: { name: 'customs', status: 'in_transit', next: ['3'] },
    15: { name: 'reverse packet arrived', status: 'in_transit' },
  },
};

/**
 * What a packet is addressed to (`addressId`): Packeta's pickup points and Z-BOXes (their id from the point feed),
 * or a carrier that delivers to the door (its id from the carrier feed). The product packdesk stores is the kind; a
 * return is a Claim Assistant packet, addressed to no point.
 */
export const PACKETA_PRODUCTS = {
  'pickup-point': { name: 'Packeta pickup point or Z-BOX (addressId: the point)' },
  'home-delivery': { name: 'Packeta home delivery (addressId: the carrier of carrier.json)' },
  'claim-assistant': { name: 'Packeta Claim Assistant return packet (createPacketClaim): handed over at a Packeta point, to the sender\'s return address' },
} as const;

/**
 * Packeta's own home delivery where the channel names no carrier: "CZ Zásilkovna domů HD" (106) and "SK Packeta
 * Home HD" (131), as Packeta's carrier feed lists them (seen in shop plug-ins' copies of carrier.json).
 */
export const PACKETA_HOME_DELIVERY: Readonly<Record<string, string>> = { CZ: '106', SK: '131' };

/** The currency Packeta collects cash on delivery in, by destination (the currencies of CZ, SK, HU, RO). */
export const PACKETA_CURRENCIES: Readonly<Record<string, string>> = { CZ: 'CZK', SK: 'EUR', HU: 'HUF', RO: 'RON' };
