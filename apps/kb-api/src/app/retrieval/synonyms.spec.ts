import { alternativesOf, termQuery } from './synonyms';

describe('synonym expansion', () => {
  const sets = [
    { project_key: null, terms: ['car', 'automobile', 'motor vehicle'] },
    { project_key: 'fleet', terms: ['car', 'van'] },
    { project_key: null, terms: ['user guide', 'manual'] },
  ];

  it('expands a one-word member to the other members of every set that applies to the searched projects', () => {
    expect(alternativesOf(['car', 'permit'], sets)).toEqual(new Map([['car', [['automobile'], ['motor', 'vehicle'], ['van']]]]));
    expect(alternativesOf(['car'], sets, ['people']).get('car')).toEqual([['automobile'], ['motor', 'vehicle']]);
    expect(alternativesOf(['car'], sets, ['fleet']).get('car')).toEqual([['automobile'], ['motor', 'vehicle'], ['van']]);
    // A phrase member is an expansion, never a trigger from one of its words.
    expect(alternativesOf(['guide', 'manual'], sets)).toEqual(new Map([['manual', [['user', 'guide']]]]));
  });

  it('writes a term and its synonyms as one OR operand, phrases as <-> sequences, quoting every lexeme', () => {
    expect(termQuery('permit', undefined)).toBe("'permit'");
    expect(termQuery('car', [['automobile'], ['motor', 'vehicle']])).toBe("('car' | 'automobile' | ('motor' <-> 'vehicle'))");
    expect(termQuery('car', [["o'neil"]], 'AB')).toBe("('car':AB | 'o''neil':AB)");
  });
});
