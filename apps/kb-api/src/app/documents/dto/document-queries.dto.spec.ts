import { createValidationPipe, ValidationFailedError } from '@platform/observability';
import { DocumentSearchQuery, RelatedDocumentsQuery, WikilinkQuery } from './document-queries.dto';

const pipe = createValidationPipe();

/** What the route's handler gets, or the 422's `errors` as kb-api answers them (`{field: [messages]}`). */
async function read(metatype: new () => object, query: Record<string, unknown>) {
  try {
    return { value: { ...(await pipe.transform(query, { type: 'query', metatype })) } };
  } catch (e) {
    if (!(e instanceof ValidationFailedError)) throw e;
    const errors: Record<string, string[]> = {};
    for (const f of e.errors) (errors[f.field] ??= []).push(f.message);
    return { message: e.errors[0].message, errors };
  }
}

describe('document query DTOs', () => {
  it('trims q, counts code points and answers one message per field', async () => {
    expect(await read(DocumentSearchQuery, { q: '  keys ' })).toEqual({ value: { q: 'keys', project_keys: [] } });
    expect(await read(DocumentSearchQuery, {})).toEqual({ message: 'The q field is required.', errors: { q: ['The q field is required.'] } });
    expect((await read(DocumentSearchQuery, { q: '   ' })).errors).toEqual({ q: ['The q field is required.'] });
    expect((await read(DocumentSearchQuery, { q: ' a ' })).errors).toEqual({ q: ['The q field must be at least 2 characters.'] });
    expect((await read(DocumentSearchQuery, { q: 'x'.repeat(121) })).errors).toEqual({ q: ['The q field must not be greater than 120 characters.'] });
    expect((await read(DocumentSearchQuery, { q: ['a', 'b'] })).errors).toEqual({ q: ['The q field must be a string.'] });
    // 120 astral characters are 240 UTF-16 units but 120 characters.
    expect((await read(DocumentSearchQuery, { q: '𝄞'.repeat(120) })).value).toBeDefined();
    expect((await read(DocumentSearchQuery, { q: '𝄞'.repeat(121) })).errors).toEqual({ q: ['The q field must not be greater than 120 characters.'] });
  });

  it('reads a list as name[] (repeated or once) or a single name, trimmed', async () => {
    expect((await read(DocumentSearchQuery, { q: 'keys', 'project_keys[]': [' a', 'b '] })).value).toEqual({ q: 'keys', project_keys: ['a', 'b'] });
    expect((await read(DocumentSearchQuery, { q: 'keys', 'project_keys[]': 'a' })).value).toEqual({ q: 'keys', project_keys: ['a'] });
    expect((await read(DocumentSearchQuery, { q: 'keys', project_keys: 'a' })).value).toEqual({ q: 'keys', project_keys: ['a'] });
    expect((await read(RelatedDocumentsQuery, { 'slugs[]': ['a', 'a'] })).value).toEqual({ project_key: undefined, slugs: ['a', 'a'] });
  });

  it('keys each bad entry by its index, the list by its name', async () => {
    expect(await read(RelatedDocumentsQuery, { 'slugs[]': ['ok', ' ', 'y'.repeat(201)] })).toEqual({
      message: 'The slugs.1 field must be a non-empty string.',
      errors: {
        'slugs.1': ['The slugs.1 field must be a non-empty string.'],
        'slugs.2': ['The slugs.2 field must not be greater than 200 characters.'],
      },
    });
    expect((await read(RelatedDocumentsQuery, {})).errors).toEqual({ slugs: ['The slugs field is required.'] });
    expect((await read(RelatedDocumentsQuery, { 'slugs[]': '' })).errors).toEqual({ 'slugs.0': ['The slugs.0 field must be a non-empty string.'] });
    const tooMany = Array.from({ length: 51 }, (_, i) => (i === 3 ? '' : `p${i}`));
    expect((await read(DocumentSearchQuery, { q: 'keys', 'project_keys[]': tooMany })).errors).toEqual({
      project_keys: ['The project_keys field must not have more than 50 items.'],
    });
  });

  it('answers every field at once, in the order of the query', async () => {
    expect((await read(RelatedDocumentsQuery, { project_key: 'p'.repeat(121), 'slugs[]': [''] })).errors).toEqual({
      project_key: ['The project_key field must not be greater than 120 characters.'],
      'slugs.0': ['The slugs.0 field must be a non-empty string.'],
    });
    expect(Object.keys((await read(WikilinkQuery, {})).errors!)).toEqual(['project', 'slug']);
    expect((await read(WikilinkQuery, { project: 'platform', slug: ' token-lifetimes ' })).value).toEqual({ project: 'platform', slug: 'token-lifetimes' });
  });

  it('ignores query parameters it does not read', async () => {
    expect((await read(WikilinkQuery, { project: 'platform', slug: 'a', page: '2', 'slugs[]': 'x' })).value).toEqual({ project: 'platform', slug: 'a' });
  });
});
