import { completeActions, PII_DETECTORS, protectText, restoreText } from './pii-policy';

describe('PII strategy applied to a text', () => {
  const text = 'Mail ada@example.com or call +44 20 7946 0958, card 4111 1111 1111 1111.';
  let n = 0;
  const ids = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

  it('covers every guardrails detector and masks by default', () => {
    expect(PII_DETECTORS).toEqual(
      expect.arrayContaining(['email', 'phone', 'iban', 'credit_card', 'ipv4']),
    );
    const out = protectText(text, completeActions(), ids);
    expect(out.text).toBe(
      'Mail [REDACTED:email] or call [REDACTED:phone], card [REDACTED:credit_card].',
    );
    expect(out.hits).toEqual({ email: 1, phone: 1, credit_card: 1 });
    expect(out.tokens).toEqual([]);
  });

  it('keeps, masks and tokenizes per detector, and the tokens restore the original', () => {
    const out = protectText(
      text,
      completeActions({ email: 'tokenize', phone: 'keep', credit_card: 'mask' }),
      ids,
    );
    expect(out.text).toMatch(
      /^Mail \[PII:email:[0-9a-f-]{36}\] or call \+44 20 7946 0958, card \[REDACTED:credit_card\]\.$/,
    );
    expect(out.tokens).toEqual([
      { id: expect.any(String), detector: 'email', value: 'ada@example.com' },
    ]);
    expect(out.hits).toEqual({ email: 1, phone: 1, credit_card: 1 });
    const restored = restoreText(out.text, new Map(out.tokens.map((t) => [t.id, t.value])));
    expect(restored).toBe(
      'Mail ada@example.com or call +44 20 7946 0958, card [REDACTED:credit_card].',
    );
  });

  it('leaves a placeholder whose value is unknown as it is', () => {
    const placeholder = '[PII:email:00000000-0000-4000-8000-000000000999]';
    expect(restoreText(`to ${placeholder}`, new Map())).toBe(`to ${placeholder}`);
  });

  it('changes nothing in a text without personal data', () => {
    expect(protectText('How long are audit logs kept?', completeActions(), ids)).toEqual({
      text: 'How long are audit logs kept?',
      hits: {},
      tokens: [],
    });
  });
});
