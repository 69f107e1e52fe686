import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { parcelsOf, pplChannel, pplEmulatorControl, shipmentBody } from '../helpers/shipments.js';

/**
 * Shipment creation is shared fairly: between carriers, and between the channels of one carrier, so a carrier that
 * does not answer, or one account's backlog, holds up no one else; a carrier that stopped answering holds no slots.
 */
describe('fair shipment creation', () => {
  let d: TestDaemon;
  /** PPL and DHL Express, answering. */
  let emu: RunningEmulators;
  /** A PPL that a story makes stop answering; closing it ends the calls it holds. */
  let stuck: RunningEmulators | undefined;
  let a: TestAccount;

  const ppl = pplEmulatorControl(() => emu.url);

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl', 'dhl'], port: 0 });
    // longer than the 2 s the other shipment is given: the calls PPL holds are still held when it is created
    d = await startTestDaemon({ carrierTimeoutMs: 3000 });
    a = await d.account('Warehouse');
  });
  afterAll(async () => {
    await d.close();
    await emu.close();
  });
  afterEach(async () => {
    await stuck?.close();
    stuck = undefined;
    await ppl.fault({ mode: 'none' });
    await d.workers.stop();
    await d.ctx.store.run('DELETE FROM jobs'); // the next story starts with nothing queued
  });

  /** `n` PPL channels of `account` on a PPL that holds every call unanswered. */
  const stuckPplChannels = async (account: TestAccount, n = 1) => {
    stuck = await startEmulators({ providers: ['ppl'], port: 0 });
    const channels: string[] = [];
    for (let i = 0; i < n; i++) channels.push(await pplChannel(account, stuck.urls.ppl!));
    await pplEmulatorControl(() => stuck!.url).fault({ mode: 'timeout' });
    return channels;
  };
  const post = async (account: TestAccount, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await account.request('POST', '/v1/shipments', body, headers);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; status: string };
  };
  const postMany = async (account: TestAccount, channel: string, n: number, prefix: string) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await post(account, shipmentBody(channel, { reference_number: `${prefix}-${i}` }))).id);
    return ids;
  };
  /** A channel's creation jobs: running now, queued and never tried, tried at the carrier. */
  const jobsOf = async (channel: string) => {
    const rows = await d.ctx.store.all<{ state: string; attempts: number }>(`SELECT j.state, j.attempts FROM jobs j
      JOIN shipments s ON s.id = j.subject_id WHERE s.channel_id = ?`, channel);
    return {
      running: rows.filter((r) => r.state === 'running').length,
      untried: rows.filter((r) => r.state === 'queued' && r.attempts === 0).length,
      tried: rows.filter((r) => r.attempts > 0).length,
    };
  };
  const dhlChannel = async () => {
    const res = await a.request('POST', '/v1/shipping-channels', {
      name: 'DHL Express', provider: 'dhl', settings: { ...findProvider('dhl')!.demo.settings, baseUrl: emu.urls.dhl },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.status).toBe('active');
    return res.json().data.id as string;
  };
  const dhlBody = (channel: string) => {
    const { cash_on_delivery_currency: _currency, ...parties } = findProvider('dhl')!.demo.shipment;
    return { shipping_channel_id: channel, label_format: 'pdf', reference_number: 'DHL-1', parcels: parcelsOf(1), ...parties };
  };

  it('creates a DHL shipment within 2 s while PPL does not answer and 40 PPL shipments wait, which then hold no slots', async () => {
    const dhlId = await dhlChannel();
    // a morning's first DHL shipment, before PPL stops answering
    const morning = await post(a, dhlBody(dhlId));
    await d.runJobs();
    expect((await a.request('GET', `/v1/shipments/${morning.id}`)).json().data.status).toBe('created');
    const [pplId] = await stuckPplChannels(a);
    await postMany(a, pplId, 40, 'PPL');
    d.workers.start();
    await vi.waitFor(async () => expect((await jobsOf(pplId)).running).toBe(32), { timeout: 2000, interval: 20 });

    const dhl = await post(a, dhlBody(dhlId), { prefer: 'wait=2' });
    expect(dhl.status).toBe('created');

    // PPL's calls time out: its channel pauses, and its other shipments wait queued, untried, holding no slot (the
    // first timeout pauses nothing yet, the second does: one more shipment may have started between the two)
    await vi.waitFor(async () => expect((await jobsOf(pplId)).running).toBe(0), { timeout: 10_000, interval: 50 });
    const after = await jobsOf(pplId);
    expect(after.untried).toBeGreaterThanOrEqual(7);
    expect(after.untried + after.tried).toBe(40);
    expect(d.logText()).toContain('lane unavailable; its jobs wait');
  });

  it('creates one account\'s PPL shipment within 2 s while another account\'s 40 wait on its PPL endpoint that does not answer', async () => {
    const channel = await pplChannel(a, emu.urls.ppl!);
    await post(a, shipmentBody(channel, { reference_number: 'MINE-0' }));
    await d.runJobs();
    const other = await d.account('Stuck shop');
    const [stuckChannel] = await stuckPplChannels(other);
    await postMany(other, stuckChannel, 40, 'STUCK');
    d.workers.start();
    await vi.waitFor(async () => expect((await jobsOf(stuckChannel)).running).toBe(32), { timeout: 2000, interval: 20 });

    const mine = await post(a, shipmentBody(channel, { reference_number: 'MINE-1' }), { prefer: 'wait=2' });
    expect(mine.status).toBe('created');
  });

  it('shares the slots evenly between two channels of one carrier with 40 shipments queued each', async () => {
    const [first, second] = await stuckPplChannels(a, 2);
    await postMany(a, first, 40, 'FIRST');
    d.clock.advance(1000); // the second channel's shipments come after the first's
    await postMany(a, second, 40, 'SECOND');
    d.workers.start();
    await vi.waitFor(async () => expect((await jobsOf(first)).running + (await jobsOf(second)).running).toBe(32), { timeout: 2000, interval: 20 });
    expect((await jobsOf(first)).running).toBe(16);
    expect((await jobsOf(second)).running).toBe(16);
  });

  it('pauses a PPL that failed twice in a row: later shipments wait untried, one at a time finds it answering, all are created once', async () => {
    const channel = await pplChannel(a, emu.urls.ppl!);
    await ppl.fault({ mode: 'error500' });
    const ids = await postMany(a, channel, 1, 'PAUSE-A');
    await d.runJobs();
    expect(await jobsOf(channel)).toEqual({ running: 0, untried: 0, tried: 1 });
    ids.push(...await postMany(a, channel, 1, 'PAUSE-B')); // one failure does not pause the channel
    await d.runJobs();
    expect(await jobsOf(channel)).toEqual({ running: 0, untried: 0, tried: 2 });
    ids.push(...await postMany(a, channel, 5, 'PAUSE-C')); // a second one in a row does
    await d.runJobs();
    expect(await jobsOf(channel)).toEqual({ running: 0, untried: 5, tried: 2 });

    d.clock.advance(10_000); // past the first pause, not yet at any shipment's own retry
    await d.runJobs();
    expect(await jobsOf(channel)).toEqual({ running: 0, untried: 4, tried: 3 });

    await ppl.fault({ mode: 'none' });
    d.clock.advance(20_000);
    await d.runJobs();
    expect(await jobsOf(channel)).toEqual({ running: 0, untried: 0, tried: 3 });
    d.clock.advance(10 * 60_000); // the failed ones' own retries
    await d.runJobs();
    const statuses = await Promise.all(ids.map(async (id) => (await a.request('GET', `/v1/shipments/${id}`)).json().data.status));
    expect(statuses).toEqual(ids.map(() => 'created'));
    expect((await ppl.shipments()).filter((s) => ids.includes(s.referenceId))).toHaveLength(ids.length);
  });
});
