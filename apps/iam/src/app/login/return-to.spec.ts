import { safeReturnTo } from './return-to';

describe('safeReturnTo', () => {
  it('keeps our own authorize requests and the account page', () => {
    expect(safeReturnTo('/oauth/authorize?client_id=a&state=b')).toBe('/oauth/authorize?client_id=a&state=b');
    expect(safeReturnTo('/login/account')).toBe('/login/account');
  });

  it.each(['https://evil.example/', '//evil.example/oauth/authorize?', '/\\evil.example', '/oauth/authorize?x\r\nLocation: x', '/login/accountx', '', undefined, 42])(
    'sends %p to the account page instead',
    (value) => {
      expect(safeReturnTo(value)).toBe('/login/account');
    },
  );
});
