import { requiredAal } from './authorize.service';

describe('requiredAal (acr_values)', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['urn:other', undefined],
    ['aal2', 'aal2'],
    ['aal3 aal2', 'aal2'],
    ['aal3', 'aal3'],
    ['urn:other aal1 aal2', 'aal1'],
  ])('%p requires %p', (acrValues, expected) => {
    expect(requiredAal(acrValues)).toBe(expected);
  });
});
