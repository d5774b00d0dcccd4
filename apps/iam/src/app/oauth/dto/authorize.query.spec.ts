import { readDto } from '../../read-dto';
import { AuthorizeQuery } from './authorize.query';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('AuthorizeQuery', () => {
  it('reads a full request: max_age as a number, one resource as a list, unknown parameters dropped', () => {
    const { value, errors } = readDto(AuthorizeQuery, {
      response_type: 'code',
      client_id: 'web',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      max_age: '300',
      resource: 'https://api.example.test',
      dpop_jkt: CHALLENGE,
      ui_locales: 'de',
    });
    expect(errors).toEqual({});
    expect(value).toMatchObject({ max_age: 300, resource: ['https://api.example.test'], dpop_jkt: CHALLENGE });
    expect(value).not.toHaveProperty('ui_locales');
  });

  it('names S256 for a challenge without its method, and refuses a challenge that is not a SHA-256 digest', () => {
    expect(readDto(AuthorizeQuery, { code_challenge: CHALLENGE }).errors).toEqual({ code_challenge_method: 'code_challenge_method must be S256' });
    expect(readDto(AuthorizeQuery, { code_challenge: CHALLENGE, code_challenge_method: 'plain' }).errors.code_challenge_method).toMatch(/S256/);
    expect(readDto(AuthorizeQuery, { code_challenge_method: 'S256' }).errors).toEqual({ code_challenge: 'code_challenge must be a base64url SHA-256 digest' });
    expect(readDto(AuthorizeQuery, { code_challenge: `${CHALLENGE}x`, code_challenge_method: 'S256' }).errors.code_challenge).toBeDefined();
    expect(readDto(AuthorizeQuery, {}).errors).toEqual({});
  });

  it('refuses a max_age that is not a non-negative integer and a malformed dpop_jkt', () => {
    for (const maxAge of ['-1', '1.5', 'soon']) {
      expect(readDto(AuthorizeQuery, { max_age: maxAge }).errors).toEqual({ max_age: 'max_age must be a non-negative integer' });
    }
    expect(readDto(AuthorizeQuery, { dpop_jkt: 'short' }).errors).toEqual({ dpop_jkt: 'dpop_jkt must be a base64url SHA-256 JWK thumbprint' });
  });
});
