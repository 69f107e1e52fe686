import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { grantAccess } from '../../src/services/channel-grants.js';
import { carrierContext } from '../../src/services/channels.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { channelAuthorizations, events, shippingChannels } from '../../src/store/schema.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';

/**
 * A channel that acts for a person (Allegro): the OAuth2 device flow through the daemon, tokens stored sealed and
 * refreshed once however many workers or stations need them, and a revoked grant the user can see.
 */
describe('authorising a channel by a person (device flow)', () => {
  const allegro = findProvider('allegro')!;
  const HOUR = 3_600_000;
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;

  const control = async (method: string, path: string) => {
    const res = await fetch(`${emu.url}/_emulator/allegro/${path}`, { method });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(200);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const refreshes = async () => (await control('GET', 'oauth')).refreshes as number;
  const channelOf = async (id: string) => (await a.request('GET', `/v1/shipping-channels/${id}`)).json().data;
  const authorizationOf = async (id: string) => (await a.request('GET', `/v1/shipping-channels/${id}/authorization`)).json().data;
  const addChannel = async (name: string) => {
    const res = await a.request('POST', '/v1/shipping-channels', {
      name, provider: 'allegro', settings: { ...allegro.demo.settings, baseUrl: emu.urls.allegro },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; status: string; validation_error: { message: string } | null };
  };
  const startFlow = async (id: string) => {
    const res = await a.request('POST', `/v1/shipping-channels/${id}/authorize`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { status: string; user_code: string; verification_uri: string };
  };
  /** Lets the daemon's worker poll the carrier once the interval has passed. */
  const pollOnce = async () => {
    d.clock.advance(60_000);
    await d.runJobs();
  };
  const approvedChannel = async (name: string) => {
    const channel = await addChannel(name);
    await control('POST', `device/${(await startFlow(channel.id)).user_code}/approve`);
    await pollOnce();
    return channel.id;
  };
  const storedTokens = async (id: string) => {
    const row = (await d.ctx.db.select().from(channelAuthorizations).where(eq(channelAuthorizations.channelId, id)).get())!;
    return d.ctx.secrets.openJson<{ accessToken: string; refreshToken: string }>(row.tokensEnc!);
  };

  beforeAll(async () => {
    d = await startTestDaemon({ carrierTimeoutMs: 1500 });
    emu = await startEmulators({ providers: ['allegro', 'ppl'], port: 0, clock: d.clock });
    a = await d.account('Allegro seller');
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('keeps a new channel at authorization_required, saying how to authorise it', async () => {
    const channel = await addChannel('Allegro waiting');
    expect(channel.status).toBe('authorization_required');
    expect(channel.validation_error!.message).toContain(`packdesk channels authorize ${channel.id}`);
    expect(await authorizationOf(channel.id)).toMatchObject({ status: 'none', user_code: null });
  });

  it('refuses to authorise a channel whose carrier takes credentials alone', async () => {
    const ppl = await a.request('POST', '/v1/shipping-channels', {
      name: 'PPL', provider: 'ppl', settings: { ...findProvider('ppl')!.demo.settings, baseUrl: emu.urls.ppl },
    });
    const res = await a.request('POST', `/v1/shipping-channels/${ppl.json().data.id}/authorize`);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['provider']);
  });

  it('shows the verification URL and user code, the same while the flow runs, and ends denied when the person says no', async () => {
    const channel = await addChannel('Allegro denied');
    const first = await startFlow(channel.id);
    expect(first).toMatchObject({ status: 'pending' });
    expect(first.user_code).toMatch(/\S+/);
    expect(first.verification_uri).toMatch(/^https?:\/\//);
    expect((await startFlow(channel.id)).user_code).toBe(first.user_code);
    await pollOnce();
    expect((await authorizationOf(channel.id)).status).toBe('pending');
    await control('POST', `device/${first.user_code}/deny`);
    await pollOnce();
    expect(await authorizationOf(channel.id)).toMatchObject({ status: 'denied', user_code: null });
    expect((await authorizationOf(channel.id)).message).toMatch(/\S/);
    expect((await channelOf(channel.id)).status).toBe('authorization_required');
  });

  it('ends expired when nobody approves the code in time', async () => {
    const channel = await addChannel('Allegro expired');
    await startFlow(channel.id);
    d.clock.advance(24 * HOUR);
    await d.runJobs();
    expect((await authorizationOf(channel.id)).status).toBe('expired');
  });

  it('stores the grant once the person approves: the channel turns active with its event, and no token is ever shown', async () => {
    const channel = await addChannel('Allegro approved');
    await control('POST', `device/${(await startFlow(channel.id)).user_code}/approve`);
    await pollOnce();
    expect(await authorizationOf(channel.id)).toMatchObject({ status: 'authorized', user_code: null });
    expect((await channelOf(channel.id)).status).toBe('active');
    const changes = (await d.ctx.db.select().from(events).where(eq(events.type, 'shipping_channel.status_changed')).all())
      .map((e) => JSON.parse(e.payload).data.shipping_channel)
      .filter((c: { id: string }) => c.id === channel.id)
      .map((c: { previous_status: string; status: string }) => [c.previous_status, c.status]);
    expect(changes).toContainEqual(['authorization_required', 'active']);
    const tokens = await storedTokens(channel.id);
    const shown = JSON.stringify([await channelOf(channel.id), await authorizationOf(channel.id)]) + d.logText();
    expect(shown).not.toContain(tokens.accessToken);
    expect(shown).not.toContain(tokens.refreshToken);
  });

  it('refreshes an expiring token once, however many calls need it at the same time', async () => {
    const id = await approvedChannel('Allegro busy');
    const before = await refreshes();
    const old = await storedTokens(id);
    d.clock.advance(24 * HOUR);
    const answers = await Promise.all([1, 2, 3].map(() => a.request('POST', `/v1/shipping-channels/${id}/validate`)));
    for (const res of answers) expect(res.json().data.status, res.body).toBe('active');
    expect(await refreshes()).toBe(before + 1);
    expect((await storedTokens(id)).refreshToken).not.toBe(old.refreshToken);
  });

  it('lets one station refresh while another on the same store waits for the new token', async () => {
    const id = await approvedChannel('Allegro two stations');
    const other = openContext({ dataDir: d.dataDir, log: d.ctx.log, clock: d.clock, store: await d.otherStore() });
    try {
      const before = await refreshes();
      d.clock.advance(24 * HOUR);
      const access = async (ctx: typeof d.ctx) => {
        const row = (await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, id)).get())!;
        return grantAccess(ctx, row, allegro, carrierContext(ctx, row)).accessToken();
      };
      const [mine, theirs] = await Promise.all([access(d.ctx), access(other)]);
      expect(mine).toBe(theirs);
      expect(await refreshes()).toBe(before + 1);
    } finally {
      await closeContext(other);
    }
  });

  it('shows a revoked grant on the channel, with a status_changed event, and takes a new authorization', async () => {
    const id = await approvedChannel('Allegro revoked');
    await control('POST', 'grants/revoke');
    d.clock.advance(24 * HOUR);
    const res = await a.request('POST', `/v1/shipping-channels/${id}/validate`);
    expect(res.json().data.status, res.body).toBe('authorization_required');
    expect((await authorizationOf(id)).status).toBe('revoked');
    const last = (await d.ctx.db.select().from(events).where(eq(events.type, 'shipping_channel.status_changed')).all())
      .map((e) => JSON.parse(e.payload).data.shipping_channel).filter((c: { id: string }) => c.id === id).at(-1);
    expect([last.previous_status, last.status]).toEqual(['active', 'authorization_required']);
    const shipment = await a.request('POST', '/v1/shipments', { shipping_channel_id: id });
    expect(shipment.statusCode).toBe(422);
    expect(shipment.json().errors.shipping_channel_id.join(' ')).toContain('authorization_required');

    await control('POST', `device/${(await startFlow(id)).user_code}/approve`);
    await pollOnce();
    expect((await channelOf(id)).status).toBe('active');
  });
});
