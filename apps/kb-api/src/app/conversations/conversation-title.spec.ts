import { MAX_GENERATED_TITLE, titleFromQuestion } from './conversation-title';

describe('titleFromQuestion', () => {
  it('keeps a short question whole, with whitespace collapsed', () => {
    expect(titleFromQuestion('  How long   are\nbackups kept? ')).toBe('How long are backups kept?');
  });

  it('cuts a long question at a word boundary and marks the cut', () => {
    const question = 'Which of the storage accounts keeps the nightly snapshots of the production databases, and for how many days are they retained?';
    const title = titleFromQuestion(question);
    expect(title.length).toBeLessThanOrEqual(MAX_GENERATED_TITLE);
    expect(title).toBe('Which of the storage accounts keeps the nightly snapshots of the production…');
  });

  it('cuts inside a very long word when there is no useful boundary', () => {
    expect(titleFromQuestion('x'.repeat(200))).toBe(`${'x'.repeat(MAX_GENERATED_TITLE - 1)}…`);
  });
});
