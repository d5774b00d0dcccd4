import { AddressPolicy } from './address-policy';

describe('outbound address policy', () => {
  it('lets public addresses through and refuses private, loopback and link-local ones', () => {
    const p = new AddressPolicy([]);
    expect(p.permits('example.org', '93.184.216.34')).toBe(true);
    expect(p.permits('example.org', '2606:2800:220:1:248:1893:25c8:1946')).toBe(true);
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect([a, p.permits('internal.test', a)]).toEqual([a, false]);
    }
  });

  it('permits private addresses only as the allow-list says: host, address or range', () => {
    const p = new AddressPolicy(['127.0.0.1', 'wiki.internal', '10.20.0.0/16']);
    expect(p.permits('localhost', '127.0.0.1')).toBe(true);
    expect(p.permits('localhost', '127.0.0.2')).toBe(false);
    expect(p.permits('wiki.internal', '192.168.4.4')).toBe(true);
    expect(p.permits('other.internal', '10.20.3.4')).toBe(true);
    expect(p.permits('other.internal', '10.21.3.4')).toBe(false);
  });
});
