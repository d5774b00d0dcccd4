import { evidenceLabel } from './evidence-tiers';

describe('evidenceLabel', () => {
  const map = {
    default_rank: 40,
    tiers: [
      { source_type: 'pdf', rank: 70, label: 'Signed PDFs' },
      { path_prefix: 'policies', rank: 90, label: 'Policy' },
      { path_prefix: 'policies/drafts/', rank: 20 },
    ],
  };

  it('prefers the longest matching folder prefix, then the source type, then the default', () => {
    expect(evidenceLabel({ source_path: 'policies/drafts/a.md', source_type: 'pdf' }, map)).toEqual({ rank: 20, label: null, matched_by: 'path_prefix' });
    expect(evidenceLabel({ source_path: 'policies/leave.md', source_type: 'markdown' }, map)).toEqual({ rank: 90, label: 'Policy', matched_by: 'path_prefix' });
    expect(evidenceLabel({ source_path: 'guides/a.pdf', source_type: 'pdf' }, map)).toEqual({ rank: 70, label: 'Signed PDFs', matched_by: 'source_type' });
    expect(evidenceLabel({ source_path: 'guides/a.md', source_type: 'markdown' }, map)).toEqual({ rank: 40, label: null, matched_by: 'default' });
  });

  it('matches a prefix as a folder, not as the start of a longer name', () => {
    expect(evidenceLabel({ source_path: 'policies-old/x.md', source_type: 'markdown' }, map).matched_by).toBe('default');
  });
});
