import { ClientUploads, TooManyUploadsError } from './client-uploads';

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
});
