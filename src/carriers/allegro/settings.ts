import { defineSettings } from '../define-settings.js';

/** Page sizes of PDF labels (`LabelRequestDto.pageSize` of Allegro's OpenAPI). */
export const ALLEGRO_LABEL_PAGE_SIZES = ['A6', 'A4'] as const;

/**
 * An Allegro channel: the application's keys (apps.developer.allegro.pl) and the seller's delivery method. The seller's
 * own access and refresh tokens are not settings: packdesk stores them when the person authorises the channel.
 */
export const allegroSettings = defineSettings({
  clientId: { type: 'string', required: true, description: 'Client ID of your Allegro application (apps.developer.allegro.pl)' },
  clientSecret: { type: 'string', required: true, secret: true, description: 'Client Secret of your Allegro application' },
  deliveryMethodId: {
    type: 'string', required: true,
    description: 'Wysyłam z Allegro delivery method id (UUID) for new shipments, as GET /shipment-management/delivery-services lists it',
  },
  credentialsId: { type: 'string', description: 'Id of your own carrier agreement registered in Wysyłam z Allegro, where the delivery method uses one' },
  labelPageSize: { type: 'string', default: 'A6', enum: ALLEGRO_LABEL_PAGE_SIZES, description: 'Page size of PDF labels' },
  codOwnerName: { type: 'string', description: 'Owner of the bank account cash on delivery is paid to (cashOnDelivery.ownerName)' },
  codIban: { type: 'string', description: 'Bank account (IBAN) cash on delivery is paid to (cashOnDelivery.iban); some delivery methods require it' },
});

export type AllegroSettings = ReturnType<typeof allegroSettings.parse>;
