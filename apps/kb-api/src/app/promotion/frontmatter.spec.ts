import { canonicalPath, CANONICAL_TYPES } from './canonical-types';
import { checkDraft, NO_FRONTMATTER } from './frontmatter';

const valid = (fm: string, body = '# Title line\n\ntext\n') => `---\nslug: a-slug\ntype: runbook\nstatus: draft\n${fm}---\n${body}`;

describe('checkDraft', () => {
  it('needs the block at the very top', () => {
    expect(checkDraft('\n---\nslug: a\n---\n')).toEqual({ valid: false, reason: 'no_frontmatter', errors: { frontmatter: [NO_FRONTMATTER] } });
    expect(checkDraft('# Heading\n---\nslug: a\n---')).toMatchObject({ reason: 'no_frontmatter' });
    expect(checkDraft('---\nslug: a-slug\ntype: runbook\nstatus: draft\n')).toMatchObject({ reason: 'no_frontmatter' });
  });

  it('accepts CRLF line ends, a byte-order mark and a block that ends the file', () => {
    expect(checkDraft('\uFEFF---\r\nslug: a-slug\r\ntype: runbook\r\nstatus: draft\r\n---\r\n# T\r\n')).toMatchObject({ valid: true, parsed: { slug: 'a-slug', title_line: 'T' } });
    expect(checkDraft('---\nslug: a-slug\ntype: runbook\nstatus: draft\n---')).toMatchObject({ valid: true, parsed: { title_line: null } });
  });

  it('rejects YAML that is not a mapping, does not parse or repeats a key', () => {
    expect(checkDraft('---\n- a\n- b\n---\n')).toMatchObject({ reason: 'invalid_frontmatter', errors: { frontmatter: [expect.stringMatching(/mapping/)] } });
    expect(checkDraft('---\nslug: a\nslug: b\n---\n')).toMatchObject({ reason: 'invalid_frontmatter', errors: { frontmatter: [expect.stringMatching(/not valid YAML/)] } });
  });

  it('keys each problem by its field', () => {
    const r = checkDraft('---\nslug: -leading\ntype: Decision\nstatus: done\nretrieval_priority: 7.5\nrelated: "[[x]]"\nsupersedes: ["[[Bad Slug]]"]\ntags: [1]\ntitle: ["x"]\n---\n');
    expect(r.valid).toBe(false);
    expect(Object.keys((r as { errors: object }).errors).sort()).toEqual(['related', 'retrieval_priority', 'slug', 'status', 'supersedes', 'tags', 'title', 'type']);
  });

  it('reads the optional fields, unwrapping [[wikilinks]], and prefers the frontmatter title', () => {
    const r = checkDraft(valid('id: 42\ntitle: Restore a bucket\nretrieval_priority: 0\nrelated: ["[[snapshot-retention]]", backups]\nsuperseded_by: [new-way]\nowners: [ops]\nsummary: How to restore.\n'));
    expect(r).toEqual({
      valid: true,
      parsed: {
        doc_id: '42',
        slug: 'a-slug',
        type: 'runbook',
        status: 'draft',
        title_line: 'Restore a bucket',
        retrieval_priority: 0,
        related_slugs: ['snapshot-retention', 'backups'],
        supersedes_slugs: [],
        superseded_by_slugs: ['new-way'],
        tags: [],
        owners: ['ops'],
        summary: 'How to restore.',
      },
    });
  });
});

describe('canonicalPath', () => {
  it('puts every type in its folder, a project index at the project root', () => {
    expect(CANONICAL_TYPES.map((t) => canonicalPath(t, 's'))).toEqual([
      's.md',
      'modules/s.md',
      'decisions/s.md',
      'runbooks/s.md',
      'standards/s.md',
      'incidents/s.md',
      'integrations/s.md',
      'domain-concepts/s.md',
      'rejected/s.md',
    ]);
  });
});
