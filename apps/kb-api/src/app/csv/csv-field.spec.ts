import { toCsv } from '../admin-insight/compliance/csv';
import { csvField, csvLine } from './csv-field';

describe('csvField', () => {
  it('defuses a formula start whatever the cell was before it became text', () => {
    // An access-review memberships cell: project keys are chosen by users.
    expect(csvField(['=HYPERLINK("http://x.test")&A1:viewer', 'b:editor'])).toBe(
      `"'=HYPERLINK(""http://x.test"")&A1:viewer; b:editor"`,
    );
    expect(csvField(['@SUM(1)'])).toBe(`'@SUM(1)`);
    expect(csvField([-1, 2])).toBe(`'-1; 2`);
    expect(csvField(-3)).toBe(`'-3`);
    expect(csvField('+1')).toBe(`'+1`);
    expect(csvField('\tx')).toBe(`'\tx`);
    expect(csvField('\uFF1D1+1')).toBe(`'\uFF1D1+1`);
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
    expect(csvField(null)).toBe('');
    expect(csvField('plain, text')).toBe('"plain, text"');
    expect(csvField("O'Brien")).toBe("O'Brien");
  });

  it('is the one guard behind the compliance report and the tabular-review export', () => {
    expect(toCsv([{ user_id: '1', memberships: ['=cmd|\' /C calc\'!A0:viewer'] }])).toBe(
      `user_id,memberships\r\n1,'=cmd|' /C calc'!A0:viewer\r\n`,
    );
    expect(csvLine([22, '-2+3', '=evil.md'])).toBe(`22,'-2+3,'=evil.md\r\n`);
  });
});
