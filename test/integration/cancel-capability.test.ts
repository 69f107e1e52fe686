import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { callOneEmulator } from '../helpers/dispatch-adapter.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { parcelsOf } from '../helpers/shipments.js';

interface HeldPackage { orderNumber: string; referenceNumber: string; state: string; sentForProcessing: boolean }

const one = findProvider('onedelivery')!;
// the demo's credentials and parties, with One's own default for sending for processing
const { sendForProcessing: _demoChoice, ...defaultSettings } = one.demo.settings;
const { cash_on_delivery_currency: _currency, ...parties } = one.demo.shipment;

describe('cancel as a channel can do it: One by Allegro sending shipments for processing at creation', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let a: TestAccount;

  const held = async () => ((await (await fetch(`${emu.url}/_emulator/onedelivery/shipments`)).json()) as { shipments: HeldPackage[] }).shipments;
  const createdShipment = async (channel: string, reference: string) => {
    const res = await a.request('POST', '/v1/shipments', { shipping_channel_id: channel, label_format: 'pdf', reference_number: reference, parcels: parcelsOf(2), ...parties });
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const shipment = (await a.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data;
    expect(shipment.status, JSON.stringify(shipment.failure)).toBe('created');
    return shipment as { id: string; provider_shipment_id: string };
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['onedelivery'], port: 0 });
    proxy = await recordingProxy(emu.url);
    d = await startTestDaemon();
    a = await d.account('One shop');
  });
  afterAll(async () => {
    await d.close();
    await proxy.close();
    await emu.close();
  });

  it('shows cancel: no with the reason on a channel with the default settings, and refuses to cancel before calling One', async () => {
    const provider = (await a.request('GET', '/v1/providers')).json().data.find((p: { code: string }) => p.code === 'onedelivery');
    expect(provider).toMatchObject({ cancel: false, unavailable_because: { cancel: expect.stringContaining('settings.sendForProcessing') } });

    const added = await a.request('POST', '/v1/shipping-channels', {
      name: 'One default', provider: 'onedelivery', settings: { ...defaultSettings, baseUrl: `${proxy.url}/onedelivery` },
    });
    expect(added.statusCode, added.body).toBe(201);
    const channel = added.json().data;
    expect(channel.status).toBe('active');
    expect(channel.capabilities).toMatchObject({ cancel: false, unavailable_because: { cancel: expect.stringContaining('sent for processing') } });
    const listed = (await a.request('GET', '/v1/shipping-channels?provider=onedelivery')).json().data;
    expect(listed.find((c: { id: string }) => c.id === channel.id).capabilities).toEqual(channel.capabilities);

    const shipment = await createdShipment(channel.id, 'ONE-SENT');
    expect((await held()).find((p) => p.orderNumber === shipment.provider_shipment_id)).toMatchObject({ sentForProcessing: true });
    proxy.calls.length = 0;
    const refused = await a.request('POST', `/v1/shipments/${shipment.id}/cancel`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: `Channel One default cannot cancel shipments: ${channel.capabilities.unavailable_because.cancel}`,
      errors: { shipping_channel_id: [channel.capabilities.unavailable_because.cancel] },
    });
    expect(proxy.calls, 'One was not asked').toEqual([]);
    expect((await a.request('GET', `/v1/shipments/${shipment.id}`)).json().data.status).toBe('created');

    // One itself refuses to delete a package sent for processing, in its own error shape
    const direct = await callOneEmulator(emu.urls.onedelivery!, 'DELETE', `package/${shipment.provider_shipment_id}`);
    expect(direct.status).toBe(403);
    expect(await direct.json()).toEqual({ message: 'Package already sent for processing', detail: [`order_number: ${shipment.provider_shipment_id} can no longer be deleted`] });
  });

  it('cancels at One once the channel leaves shipments for the daily batch', async () => {
    const added = await a.request('POST', '/v1/shipping-channels', {
      name: 'One batch', provider: 'onedelivery', settings: { ...defaultSettings, baseUrl: `${proxy.url}/onedelivery` },
    });
    const id = added.json().data.id;
    const changed = await a.request('PATCH', `/v1/shipping-channels/${id}`, { settings: { sendForProcessing: false } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.capabilities).toMatchObject({ cancel: true, unavailable_because: {} });

    const shipment = await createdShipment(id, 'ONE-WAITING');
    proxy.calls.length = 0;
    const cancelled = await a.request('POST', `/v1/shipments/${shipment.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.status).toBe('cancelled');
    expect(proxy.calls).toEqual([{ method: 'DELETE', path: `/onedelivery/package/${shipment.provider_shipment_id}` }]);
    expect((await held()).find((p) => p.orderNumber === shipment.provider_shipment_id)).toMatchObject({ state: 'CANCELLED' });
  });
});
