import type { SettingSpec } from '../types.js';

/** Page size for PDF labels (`POST /shipment-management/label` `pageSize`). */
export const ALLEGRO_LABEL_PAGE_SIZES = ['A6', 'A4'] as const;

export const allegroSettings: readonly SettingSpec[] = [
  { key: 'clientId', type: 'string', required: true, secret: false, description: 'Allegro application Client ID' },
  { key: 'clientSecret', type: 'string', required: true, secret: true, description: 'Allegro application Client Secret' },
  {
    // Shipment management needs a seller (user) token; renewing it with grant_type=refresh_token is inferred
    // from standard OAuth2 (https://developer.allegro.pl).
    key: 'refreshToken', type: 'string', required: true, secret: true,
    description: "Refresh token of the seller's account (device or authorization-code flow); shipment management needs a user token",
  },
  { key: 'deliveryMethodId', type: 'string', required: false, secret: false, description: 'Wysyłam z Allegro delivery method id (UUID) for new shipments' },
  { key: 'credentialsId', type: 'string', required: false, secret: false, description: 'Credentials id of your own carrier agreement, if the delivery method uses one' },
  {
    key: 'labelPageSize', type: 'string', required: false, secret: false, default: 'A6', enum: ALLEGRO_LABEL_PAGE_SIZES,
    description: 'Page size of PDF labels',
  },
];
