import { resolveEngineConfig } from './config';
import { hostOf, LabelableSource, labelSource } from './labeling';

const rules = resolveEngineConfig({
  tiers: { vendor: { rank: 55, label: 'Vendor docs' } },
  tier_hints: {
    'nih.gov': 'official',
    '*.example.org': 'blog',
    'docs.example.org': 'vendor',
    'arxiv.org': 'news',
  },
});
const plain = resolveEngineConfig();

const source = (fields: Partial<LabelableSource>): LabelableSource => ({
  url: null,
  title: null,
  snippet: null,
  declared_tier: null,
  metadata: {},
  ...fields,
});
const label = (fields: Partial<LabelableSource>, r = rules) => labelSource(source(fields), r);

describe('labelSource: the first rule that matches decides', () => {
  it('1. a declared tier, trimmed, wins over everything else', () => {
    expect(
      label({ declared_tier: ' guideline ', url: 'https://arxiv.org/abs/1', title: '10.1000/xyz' }),
    ).toEqual({
      tier: 'guideline',
      rule: 'declared_tier',
    });
    expect(label({ declared_tier: 'vendor' }).tier).toBe('vendor');
    expect(label({ declared_tier: 'Peer_Reviewed' }).tier).toBe('peer_reviewed');
  });

  it('1. an unknown declared tier becomes unverified, even when a later rule would have matched', () => {
    expect(label({ declared_tier: 'gospel', url: 'https://www.nih.gov/x' })).toEqual({
      tier: 'unverified',
      rule: 'declared_tier',
    });
  });

  it('1. a blank declared tier does not count as declared', () => {
    expect(label({ declared_tier: '  ', url: 'https://nih.gov' }).rule).toBe('domain_hint');
  });

  it('2. domain hints match the host or any subdomain, lowercased', () => {
    expect(label({ url: 'https://nih.gov/page' })).toEqual({
      tier: 'official',
      rule: 'domain_hint',
    });
    expect(label({ url: 'HTTPS://WWW.NCBI.NIH.GOV/x' }).tier).toBe('official');
    expect(label({ url: 'https://notnih.gov/x' }).tier).toBe('unverified');
    expect(label({ url: 'https://nih.gov.evil.test/x' }).tier).toBe('unverified');
  });

  it('2. *.x also covers x itself', () => {
    expect(label({ url: 'https://example.org/' }).tier).toBe('blog');
    expect(label({ url: 'https://a.b.example.org/' }).tier).toBe('blog');
  });

  it('2. hints are tried in config order (the earlier, broader hint wins)', () => {
    expect(label({ url: 'https://docs.example.org/guide' }).tier).toBe('blog');
  });

  it('2. a URL without a scheme has no host', () => {
    expect(label({ url: 'nih.gov/x' }).tier).toBe('unverified');
    expect(label({ url: '//nih.gov/x' }).tier).toBe('unverified');
  });

  it('2. a hint comes before the preprint host rule', () => {
    expect(label({ url: 'https://arxiv.org/abs/2401.00001' })).toEqual({
      tier: 'news',
      rule: 'domain_hint',
    });
  });

  it('3. arXiv (or a subdomain) is a preprint, even when a DOI is present', () => {
    expect(
      label(
        { url: 'https://arxiv.org/abs/2401.00001', title: 'doi:10.48550/arXiv.2401.00001' },
        plain,
      ),
    ).toEqual({
      tier: 'preprint',
      rule: 'preprint_host',
    });
    expect(label({ url: 'http://export.arxiv.org/abs/1' }, plain).tier).toBe('preprint');
    expect(label({ url: 'https://notarxiv.org/abs/1' }, plain).tier).toBe('unverified');
  });

  it.each([
    ['url', { url: 'https://doi.org/10.1038/nphys1170' }],
    ['title', { title: 'See 10.1000/XYZ123 for details' }],
    ['snippet', { snippet: 'DOI:10.123456789/abc' }],
    ['metadata.doi', { metadata: { doi: '10.5555/12345678' } }],
    ['an upper-case DOI', { snippet: 'DOI 10.1016/J.CELL.2020.01.001' }],
  ])('4. a DOI in %s means peer-reviewed', (_where, fields) => {
    expect(label(fields, plain)).toEqual({ tier: 'peer_reviewed', rule: 'doi' });
  });

  it.each([
    ['too few registrant digits', { title: 'version 10.123/x' }],
    ['too many registrant digits', { title: '10.1234567890/x' }],
    ['no suffix', { title: '10.1234/ and more' }],
    ['glued to a word', { title: 'v10.1234/x' }],
    ['a non-string metadata.doi', { metadata: { doi: 10.1234 } }],
  ])('4. no DOI when %s', (_why, fields) => {
    expect(label(fields, plain)).toEqual({ tier: 'unverified', rule: 'default' });
  });

  it('5. otherwise unverified', () => {
    expect(label({}, plain)).toEqual({ tier: 'unverified', rule: 'default' });
    expect(label({ url: 'https://somewhere.test/a' }, plain)).toEqual({
      tier: 'unverified',
      rule: 'default',
    });
  });
});

describe('hostOf', () => {
  it('reads the lowercased host of an absolute URL and nothing else', () => {
    expect(hostOf('https://Sub.Example.ORG:8443/path?q=1')).toBe('sub.example.org');
    expect(hostOf('https://example.org./x')).toBe('example.org');
    expect(hostOf(' https://example.org ')).toBe('example.org');
    expect(hostOf('example.org/x')).toBeNull();
    expect(hostOf('mailto:someone@example.org')).toBeNull();
    expect(hostOf('http://')).toBeNull();
    expect(hostOf(null)).toBeNull();
  });
});
