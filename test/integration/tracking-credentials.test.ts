import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierCredentialsRefusedError } from '../../src/carriers/errors.js';
import { listProviders } from '../../src/carriers/registry.js';
import type { ParcelToTrack, ProviderDefinition } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';

/**
 * A number of each carrier's format, never issued by its emulator: with refused credentials the carrier says no to
 * the login, and the number must not come back as "not found". Baselinker tracks by the package id saved at creation.
 */
const ASKED: Record<string, ParcelToTrack> = {
  ppl: { trackingNumber: '40990000001' },
  dhl: { trackingNumber: '1234567890' },
  dhl_pl: { trackingNumber: 'JJD000030000000000000000001' },
  dpd: { trackingNumber: '05308801410058' },
  dpd_pl: { trackingNumber: '1000000000001U' },
  gls: { trackingNumber: '31000000001' },
  gls_pl: { trackingNumber: '12345678901' },
  spx: { trackingNumber: '123456789012345' },
  mrw: { trackingNumber: '02650A000001001' },
  poste_italiane: { trackingNumber: 'ABC1234567890' },
  baselinker: { trackingNumber: '622222044730624327700198', carrierRef: '77014696' },
  onedelivery: { trackingNumber: 'ABC12345678' },
  packeta: { trackingNumber: 'Z4051118374' },
  inpost: { trackingNumber: '664920617630552000000001' },
};

/** The credential tracking uses: a separate tracking password where the carrier has one, else its first secret. */
function trackingSecret(provider: ProviderDefinition): string {
  return (provider.settings.find((s) => s.key === 'trackingPassword') ?? provider.settings.find((s) => s.secret)!).key;
}

// Allegro acts for a person: a refused grant asks for a new authorization (channel-authorization.test.ts), not new settings.
const providers = listProviders().filter((p) => !p.userAuthorization);

describe('tracking with credentials the carrier refuses', () => {
  let emu: RunningEmulators;

  beforeAll(async () => {
    emu = await startEmulators({ providers: providers.map((p) => p.code), port: 0 });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('has a number for every provider', () => {
    expect(Object.keys(ASKED).sort()).toEqual(providers.map((p) => p.code).sort());
  });

  it.each(providers.map((p) => [p.code, p] as const))('%s: the refusal is the channel\'s credentials, not an unknown parcel', async (code, provider) => {
    const asked = ASKED[code]!;
    expect(asked.trackingNumber).toMatch(provider.adapter.trackingNumberPattern!);
    const settings = { ...provider.demo.settings, [trackingSecret(provider)]: 'bad-secret', baseUrl: emu.urls[code]! };
    const ctx = { channelId: `ch_${code}_refused`, log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
    const outcome = await provider.adapter.track([asked], settings, ctx).then((results) => ({ results }), (err: unknown) => err);
    expect(outcome).toBeInstanceOf(CarrierCredentialsRefusedError);
    const refusal = outcome as CarrierCredentialsRefusedError;
    expect(refusal.message).toContain(provider.name.split(' ')[0]);
    expect(JSON.stringify({ message: refusal.message, errors: refusal.errors })).not.toContain('bad-secret');
  });
});
