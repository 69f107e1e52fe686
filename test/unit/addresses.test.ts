import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { createGuardedLookup, hostProblem, looseIPv4, resolvedHostRefusal, type LoopbackPolicy, type Resolver } from '../../src/net/addresses.js';

describe('the outbound address policy', () => {
  it('refuses link-local and metadata addresses in every spelling', () => {
    const forbidden = [
      '169.254.169.254', '169.254.0.1', '[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe', '[::ffff:a9fe:a9fe]', '::169.254.169.254',
      '::a9fe:a9fe', '64:ff9b::a9fe:a9fe', '64:ff9b::169.254.169.254', '64:ff9b:1::a9fe:a9fe', '2002:a9fe:a9fe::1', 'fe80::1',
      '[fe80::1%25eth0]', 'FEBF::1', '2852039166', '0xa9fea9fe', '0xa9.0xfe.0xa9.0xfe', '0251.0376.0251.0376', '169.254.43518',
      '169.16689662', '100.100.100.200', '168.63.129.16', '192.0.0.192', 'fd00:ec2::254', 'metadata.google.internal',
      'METADATA.GOOGLE.INTERNAL.', 'metadata', 'metadata.', 'instance-data', 'Instance-Data.', '0.0.0.0', '0.1.2.3', '0', '::',
      '::ffff:0.0.0.0', '::ffff:0:0', '[::ffff:100.100.100.200]', '64:ff9b::a83f:8110', '64:ff9b:1:a9fe:a9:fe00::',
      '64:ff9b:1:0:a9:fea9:fe00:0', '169.254.169.254.', '0XA9FEA9FE',
    ];
    for (const host of forbidden) expect(hostProblem(host), host).toMatch(/link-local or metadata|not an address/);
  });

  it('allows loopback, private LAN, public addresses and names', () => {
    const allowed = [
      '127.0.0.1', '::1', '[::1]', 'localhost', '192.168.1.50', '10.0.0.5', '172.16.4.4', '8.8.8.8', '2001:db8::1', 'fd12:3456::1',
      'fd00:ec2::253', 'printer.local', 'api.dhl.com', '::ffff:192.168.1.5', '64:ff9b::808:808', '0x7f000001', '2130706433',
      '64:ff9b:1::808:808', 'fec0::1', '::ffff:127.0.0.1', '2002:c0a8:105::1', 'metadata.example.com',
    ];
    for (const host of allowed) expect(hostProblem(host), host).toBeUndefined();
  });

  it('reads IPv4 the way inet_aton does', () => {
    expect(looseIPv4('2852039166')).toBe('169.254.169.254');
    expect(looseIPv4('0xa9.0xfe.0xa9.0xfe')).toBe('169.254.169.254');
    expect(looseIPv4('0251.0376.0251.0376')).toBe('169.254.169.254');
    expect(looseIPv4('169.254.43518')).toBe('169.254.169.254');
    expect(looseIPv4('256.1.1.1')).toBeUndefined();
    expect(looseIPv4('printer')).toBeUndefined();
    expect(looseIPv4('08.1.1.1')).toBeUndefined();
  });

  it('refuses at connect time a name that resolves to a forbidden address (DNS rebinding)', async () => {
    const records: Record<string, LookupAddress[]> = {
      'rebound.example': [{ address: '192.168.1.9', family: 4 }, { address: '169.254.169.254', family: 4 }],
      'printer.example': [{ address: '192.168.1.9', family: 4 }],
    };
    const resolver: Resolver = (name, _options, callback) => callback(null, records[name] ?? []);
    const lookup = createGuardedLookup(resolver);
    const ask = (name: string) => new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) => {
      lookup(name, {}, (err, address) => resolve({ err, address }));
    });
    const rebound = await ask('rebound.example');
    expect(rebound.err?.code).toBe('EADDRFORBIDDEN');
    expect(rebound.err?.message).toBe('rebound.example resolves to 169.254.169.254, a link-local or metadata address');
    expect(await ask('printer.example')).toEqual({ err: null, address: '192.168.1.9' });
    expect((await ask('metadata.google.internal')).err?.code).toBe('EADDRFORBIDDEN');
  });

  it('resolves a name at save time and tells which address it reaches', async () => {
    const resolver: Resolver = (name, _options, callback) => {
      if (name === 'rebound.example') return callback(null, [{ address: 'fe80::1', family: 6 }]);
      if (name === 'printer.example') return callback(null, [{ address: '192.168.1.9', family: 4 }]);
      callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
    };
    const problem = async (host: string) => (await resolvedHostRefusal(host, 'allowed', resolver))?.reason;
    expect(await problem('rebound.example')).toBe('rebound.example resolves to fe80::1, a link-local or metadata address');
    expect(await problem('printer.example')).toBeUndefined();
    // not resolvable yet: the guarded lookup checks it again when it connects
    expect(await problem('unknown.example')).toBeUndefined();
    expect(await problem('0251.0376.0251.0376')).toBe('0251.0376.0251.0376 is a link-local or metadata address');
    expect(await problem('[::1]')).toBeUndefined();
  });

  it('refuses loopback in every spelling where the policy says so, and requires it where plain http stays on the machine', () => {
    const loopback = ['127.0.0.1', '127.1', '127.255.255.254', '2130706433', '0x7f000001', '0177.0.0.1', '[::1]', '::1', '0:0:0:0:0:0:0:1',
      '[::ffff:127.0.0.1]', '::ffff:7f00:1', '127.0.0.1.'];
    const carried = ['::127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1'];
    const elsewhere = ['192.168.1.50', '10.0.0.5', '8.8.8.8', '::ffff:192.168.1.5', '2001:db8::1', 'printer.local'];
    const at = (host: string, policy: LoopbackPolicy) => hostProblem(host, policy);
    for (const host of [...loopback, ...carried]) expect(at(host, 'refused'), host).toBe(`${host} is a loopback address`);
    for (const host of [...loopback, ...carried, ...elsewhere]) expect(at(host, 'allowed'), host).toBeUndefined();
    for (const host of elsewhere) expect(at(host, 'refused'), host).toBeUndefined();
    for (const host of loopback) expect(at(host, 'required'), host).toBeUndefined();
    // carried in IPv6, 127.0.0.1 is not this machine: it goes to a translator or relay on the network
    for (const host of [...carried, '192.168.1.50', '::ffff:192.168.1.5']) expect(at(host, 'required'), host).toBe(`${host} is not a loopback address`);
    for (const policy of ['allowed', 'refused', 'required'] as const) expect(at('169.254.169.254', policy)).toBe('169.254.169.254 is a link-local or metadata address');
  });

  it('resolves localhost names and checks their addresses rather than trusting the name', async () => {
    const records: Record<string, LookupAddress[]> = {
      localhost: [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }],
      'app.localhost': [{ address: '127.0.0.1', family: 4 }],
      'printer.localhost': [{ address: '192.168.1.9', family: 4 }],
    };
    const resolver: Resolver = (name, _options, callback) => callback(null, records[name] ?? []);
    const ask = (name: string, policy: LoopbackPolicy) => new Promise<NodeJS.ErrnoException | null>((resolve) => {
      createGuardedLookup(resolver, policy)(name, {}, (err) => resolve(err));
    });
    expect((await ask('localhost', 'refused'))?.message).toBe('localhost resolves to 127.0.0.1, a loopback address');
    expect((await ask('app.localhost', 'refused'))?.message).toBe('app.localhost resolves to 127.0.0.1, a loopback address');
    expect(await ask('printer.localhost', 'refused')).toBeNull();
    expect(await ask('app.localhost', 'required')).toBeNull();
    expect((await ask('printer.localhost', 'required'))?.message).toBe('printer.localhost resolves to 192.168.1.9, not a loopback address');
    expect(await ask('localhost', 'allowed')).toBeNull();
    expect((await resolvedHostRefusal('app.localhost', 'refused', resolver))?.refusal).toBe('loopback');
    expect((await resolvedHostRefusal('printer.localhost', 'required', resolver))?.refusal).toBe('not loopback');
  });
});
