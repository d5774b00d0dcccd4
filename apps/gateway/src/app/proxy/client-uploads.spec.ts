import { clientKey, ClientUploads, TooManyUploadsError } from './client-uploads';

describe('ClientUploads', () => {
  it('lets each address hold up to its share, independently of other addresses', () => {
    const uploads = new ClientUploads(2);
    const a1 = uploads.hold('10.0.0.1');
    uploads.hold('10.0.0.1');
    expect(() => uploads.hold('10.0.0.1')).toThrow(TooManyUploadsError);
    // Another client is not affected by the first one's uploads.
    uploads.hold('10.0.0.2');
    a1();
    a1(); // a second call changes nothing
    const a3 = uploads.hold('10.0.0.1');
    expect(() => uploads.hold('10.0.0.1')).toThrow(TooManyUploadsError);
    a3();
  });

  it('forgets an address once its uploads are done', () => {
    const uploads = new ClientUploads(1);
    const release = uploads.hold('2001:db8::1');
    expect(uploads.addresses).toBe(1);
    release();
    expect(uploads.addresses).toBe(0);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(clientKey('10.0.0.1')).toBe('10.0.0.1');
    const uploads = new ClientUploads(1);
    uploads.hold('2001:db8:1:2::1');
    expect(() => uploads.hold('2001:db8:1:2::ffff')).toThrow(/this client already has 1 uploads/);
    expect(() => uploads.hold('2001:db8:1:3::1')).not.toThrow();
  });
});
