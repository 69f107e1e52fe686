import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

describe('a label downloaded in another format than the shipment\'s', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon();
    a = await d.account();
  });
  afterAll(async () => {
    await d.close();
    await emu.close();
  });

  it('converts the stored PDF to ZPL and EPL offline, and says so', async () => {
    const channel = await pplChannel(a, emu.urls.ppl!);
    const created = await a.request('POST', '/v1/shipments', shipmentBody(channel, { label_format: 'pdf' }));
    await d.runJobs();
    const id = created.json().data.id;
    const zpl = await a.request('GET', `/v1/shipments/${id}/label?format=zpl&download=1`);
    expect(zpl.statusCode, zpl.body).toBe(200);
    expect(zpl.headers['content-type']).toContain('application/zpl');
    expect(zpl.headers['content-disposition']).toContain('ORDER-1001.zpl');
    expect(zpl.body).toMatch(/^\^XA[\s\S]*\^GFA,\d+,\d+,\d+,:Z64:/);
    const epl = (await a.request('GET', `/v1/shipments/${id}/label?format=epl`)).json().data.label;
    expect(epl).toMatchObject({ format: 'epl', source: 'converted' });
    expect((await a.request('GET', `/v1/shipments/${id}/label?format=pdf`)).json().data.label).toMatchObject({ format: 'pdf', source: 'carrier' });
    expect((await a.request('GET', `/v1/shipments/${id}/label?format=gif`)).statusCode).toBe(422);
  });
});
