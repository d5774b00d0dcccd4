import { redisOptionsFromUrl } from './redis';

describe('redisOptionsFromUrl', () => {
  it('reads host, port, credentials, db and TLS from the URL', () => {
    const o = redisOptionsFromUrl('rediss://user:p%40ss@cache.internal:6380/2');
    expect(o).toMatchObject({ host: 'cache.internal', port: 6380, username: 'user', password: 'p@ss', db: 2 });
    expect(o.tls).toEqual({});
    expect(o.maxRetriesPerRequest).toBeNull();
  });

  it('defaults port and db', () => {
    expect(redisOptionsFromUrl('redis://127.0.0.1')).toMatchObject({ port: 6379, db: 0, tls: undefined });
  });
});
