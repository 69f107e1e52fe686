import { defineSettings } from '../define-settings.js';
import { SPX_CHANNEL_PRODUCTS } from './codes.js';

/** SP Express API credentials and options (sp-express/php-sdk: ApiClient, Objects/Input/*). */
export const spxSettings = defineSettings({
  login: { type: 'string', required: true, description: 'SP Express account login (HTTP Basic user name)' },
  apiKey: { type: 'string', required: true, secret: true, description: 'SP Express API key (HTTP Basic password), issued by your SP Express salesman' },
  productType: {
    type: 'string', default: 'pre-routing', enum: SPX_CHANNEL_PRODUCTS,
    description: 'pre-routing: SP Express chooses the operator; non-routing: the operator below carries the parcels',
  },
  operator: { type: 'string', description: 'Operator for non-routing shipments (options.operator), as SP Express names it for your account' },
  codBankAccount: { type: 'string', description: 'Bank account for cash-on-delivery payouts of non-routing shipments (options.cod_bank_account); else your account\'s' },
  packageContent: { type: 'string', default: 'Goods', description: 'What the parcels contain (package.content)' },
  declaredValue: { type: 'number', description: 'Declared value of a parcel in PLN (package.value); without it a COD shipment declares its COD amount' },
});

export type SpxSettings = ReturnType<typeof spxSettings.parse>;
