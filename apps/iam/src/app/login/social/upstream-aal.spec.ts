import { upstreamAal } from './upstream-aal';

describe('upstreamAal', () => {
  it.each([
    [undefined, undefined, 'aal1'],
    [undefined, ['pwd'], 'aal1'],
    [undefined, ['otp'], 'aal1'],
    [undefined, ['pwd', 'otp'], 'aal2'],
    [undefined, ['hwk', 'user'], 'aal2'],
    [undefined, ['mfa'], 'aal2'],
    ['aal2', undefined, 'aal2'],
    ['aal3', ['hwk'], 'aal2'],
    ['urn:unknown', 'mfa', 'aal1'],
    [undefined, [42, 'pwd'], 'aal1'],
  ])('acr %p and amr %p give %s', (acr, amr, expected) => {
    expect(upstreamAal(acr, amr)).toBe(expected);
  });
});
