import { ConsentForm, PasswordSignInForm, SecondFactorForm } from './login/dto/page-forms';
import { readDto } from './read-dto';

describe('readDto', () => {
  it('keeps the fields that pass, trimmed as the DTO says, and drops fields it does not declare', () => {
    const { value, errors } = readDto(PasswordSignInForm, { csrf: 't', email: ' a@example.test ', password: 'pw', return_to: '/login/account', extra: 'x' });
    expect(errors).toEqual({});
    expect({ ...value }).toEqual({ csrf: 't', email: 'a@example.test', password: 'pw', return_to: '/login/account' });
  });

  it("answers an array-shaped, empty or over-long field with the page's message and leaves it undefined", () => {
    const { value, errors } = readDto(PasswordSignInForm, { csrf: 't', email: ['a@example.test'], password: '' });
    expect(errors).toEqual({ email: 'Enter your email address.', password: 'Enter your password.' });
    expect(value.email).toBeUndefined();
    expect(value.password).toBeUndefined();
    const long = readDto(PasswordSignInForm, { csrf: 't', email: `${'a'.repeat(320)}@x`, password: 'x'.repeat(1025) });
    expect(long.errors).toEqual({ email: 'An email address has at most 320 characters.', password: 'A password has at most 1024 characters.' });
    expect(readDto(PasswordSignInForm, { csrf: 't', email: '   ', password: 'x' }).errors).toEqual({ email: 'Enter your email address.' });
  });

  it('treats an input that is not an object as an empty one', () => {
    for (const input of [undefined, null, 'text', ['a']]) {
      expect(readDto(SecondFactorForm, input).errors).toEqual({ csrf: expect.any(String) });
    }
  });

  it('refuses what the DTO does not allow, such as a decision other than allow or deny', () => {
    const { value, errors } = readDto(ConsentForm, { csrf: 't', return_to: '/oauth/authorize?x=1', decision: 'maybe' });
    expect(Object.keys(errors)).toEqual(['decision']);
    expect(value.decision).toBeUndefined();
    expect(value.return_to).toBe('/oauth/authorize?x=1');
  });
});
