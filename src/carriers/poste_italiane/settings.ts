import { defineSettings } from '../define-settings.js';
import { POSTE_CHANNEL_PRODUCTS, POSTE_COD_PAYMENT_MODES, POSTE_PDF_FORMATS } from './codes.js';

/**
 * Poste Delivery Business API credentials and options: the client id and secret of `POST /user/sessions` and the
 * contract's cost centre (mlocati/MLPosteDeliveryExpress `Library/Account.cs`, `Library/Service/JsonHttpClient.cs`).
 */
export const posteItalianeSettings = defineSettings({
  clientId: { type: 'string', required: true, description: 'Poste Delivery Business API client id (also sent as the POSTE_ClientID header)' },
  secretId: { type: 'string', required: true, secret: true, description: 'Poste Delivery Business API client secret (`secretId` of POST /user/sessions)' },
  costCenterCode: {
    type: 'string', required: true, description: 'Cost centre code of the contract (CDC-…), from mypostedeliverybusiness.it',
    // the manual's limit as MLPosteDeliveryExpress carries it (Library/Waybill/Response/Container.cs: MaxLength(20))
    maxLength: 20,
  },
  product: {
    type: 'string', default: 'APT000902', enum: POSTE_CHANNEL_PRODUCTS,
    description: 'Product for new shipments: APT000902 PosteDelivery Business Standard, APT000901 Express (cash on delivery is the APT000918 service on either)',
  },
  codPaymentMode: {
    type: 'string', default: 'CON', enum: POSTE_COD_PAYMENT_MODES,
    description: 'How the courier collects cash on delivery: CON cash, ACM cashier\'s cheque, ABM bank cheque to the sender',
  },
  pdfFormat: {
    type: 'string', default: '1011', enum: POSTE_PDF_FORMATS,
    description: 'Page of PDF labels (printFormat): 1011 a 10×11 cm label, A4 a sheet',
  },
  content: {
    type: 'string', default: 'Merce', description: 'What the parcels contain (data.content, at most 30 characters)',
    // MLPosteDeliveryExpress Library/Waybill/Request/WaybillData.cs: MaxLength(30)
    maxLength: 30,
  },
  pickupProvince: {
    type: 'string',
    description: 'Province of the pickup address (sigla, e.g. RM), needed to book a courier: Poste requires it and packdesk\'s addresses hold none',
    // the pickup contact's `region` is mandatory (mlocati/MLPosteDeliveryExpress Library/PickupBooking/Request/Address.cs)
    pattern: { regex: /^[A-Z]{2}$/, description: 'the province\'s two capital letters, e.g. RM or MI' },
  },
});

export type PosteItalianeSettings = ReturnType<typeof posteItalianeSettings.parse>;
