import { validateSync } from 'class-validator';
import { IsRedirectUris, redirectUriProblem } from './redirect-uris';

describe('redirect URIs: the one rule of manifests, registration and metadata documents', () => {
  it('refuses a fragment and user info whoever registers the URI', () => {
    for (const mode of ['any', 'loopback'] as const) {
      expect(redirectUriProblem('https://app.example/cb#frag', mode)).toMatch(/must not contain a fragment/);
      expect(redirectUriProblem('https://app.example/cb#', mode)).toMatch(/must not contain a fragment/);
      expect(redirectUriProblem('http://user:pw@127.0.0.1/cb', mode)).toMatch(/must not contain user info/);
      expect(redirectUriProblem('https://good.example@evil.example/cb', mode)).toMatch(/must not contain user info/);
      expect(redirectUriProblem('https://@evil.example/cb', mode)).toMatch(/must not contain user info/);
      expect(redirectUriProblem('https://app.example/users/@me/cb', mode)).toBeUndefined();
      expect(redirectUriProblem('com.example.app:/cb', mode)).toMatch(/must use/);
      expect(redirectUriProblem('/relative', mode)).toMatch(/not an absolute URL/);
      expect(redirectUriProblem(`https://app.example/${'a'.repeat(2000)}`, mode)).toMatch(/string URL/);
    }
  });

  it('takes plain http on any host only from an administrator', () => {
    expect(redirectUriProblem('http://app.internal:8080/cb', 'any')).toBeUndefined();
    expect(redirectUriProblem('http://app.internal:8080/cb', 'loopback')).toMatch(/must use https/);
    expect(redirectUriProblem('http://[::1]:33418/cb', 'loopback')).toBeUndefined();
  });

  it('names the first refused URI by its index', () => {
    class Dto {
      @IsRedirectUris('any')
      redirect_uris: unknown = ['https://app.example/cb', 'https://app.example/cb#x'];
    }
    const [error] = validateSync(new Dto());
    expect(Object.values(error.constraints ?? {})).toEqual(['redirect_uris.1: https://app.example/cb#x must not contain a fragment']);
    const fine = new Dto();
    fine.redirect_uris = ['https://app.example/cb'];
    expect(validateSync(fine)).toEqual([]);
  });
});
