import { defineSettings } from '../define-settings.js';

/**
 * DPDServices credentials and options: every call carries `authDataV1 {login, masterFid, password}` (DPD's
 * "DPDServices — customer documentation" 2.87, §1.2.1); tracking runs on DPD Info Services with `{channel, login, password}`.
 */
export const dpdPlSettings = defineSettings({
  login: { type: 'string', required: true, description: 'DPDServices login (authDataV1.login), issued by DPD Polska' },
  password: { type: 'string', required: true, secret: true, description: 'DPDServices password (authDataV1.password)' },
  masterFid: {
    type: 'integer', required: true,
    description: 'Master FID ("numkat", authDataV1.masterFid): your DPD customer number, also sent as the sender\'s fid and payer',
    // a customer number of digits, an xs:int in DPD's DPDPackageXmlServices.xsd (authDataV1.masterFid, sender fid)
    minimum: 1, maximum: 2147483647,
  },
  infoChannel: { type: 'string', description: 'DPD Info Services channel for tracking (authDataV1.channel); the master FID when not set' },
  parcelContent: { type: 'string', default: 'Goods', description: 'What the parcels contain (parcels.content, printed on the label; DPD requires it)' },
});

export type DpdPlSettings = ReturnType<typeof dpdPlSettings.parse>;
