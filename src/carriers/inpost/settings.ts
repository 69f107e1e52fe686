import { defineSettings } from '../define-settings.js';
import { INPOST_DOOR_SERVICES, INPOST_SENDING_METHODS } from './codes.js';

/**
 * InPost ShipX credentials and options: the organization's API token (a Bearer) and its id, as the parcel manager's
 * "API" tab gives them (dokumentacja-inpost.atlassian.net, space PL, "Authorization / Query Collections").
 */
export const inpostSettings = defineSettings({
  apiToken: { type: 'string', required: true, secret: true, description: 'ShipX API token of the organization (Authorization: Bearer), from the InPost parcel manager, My Account > API' },
  organizationId: {
    type: 'string', required: true, description: 'ShipX organization id, from the same API tab (the {organization_id} of /v1/organizations/…)',
    pattern: { regex: /^[1-9]\d{0,17}$/, description: 'a whole number, as the parcel manager shows it' },
  },
  service: {
    type: 'string', enum: INPOST_DOOR_SERVICES, default: 'inpost_courier_standard',
    description: 'ShipX service of shipments to a door; a shipment to a Paczkomat or PaczkoPunkt goes as inpost_locker_standard whatever this says',
  },
  sendingMethod: {
    type: 'string', enum: INPOST_SENDING_METHODS, default: 'dispatch_order',
    description: 'How the parcels reach InPost (custom_attributes.sending_method): dispatch_order, a courier the end-of-day dispatch orders; pop, handed in at a PaczkoPunkt; branch, at an InPost branch',
  },
  labelType: {
    type: 'string', enum: ['A6', 'normal'], default: 'A6',
    description: 'Label layout of PDF labels (type=A6 for a 10×15 cm label; normal: ShipX\'s A4 page for lockers)',
  },
});

export type InpostSettings = ReturnType<typeof inpostSettings.parse>;
