import { findSkill, isBackendTool, normalizeOrigin, SKILL_SHAPE } from './widget-catalog';

describe('widget catalog', () => {
  it('normalises origins the way keys store them', () => {
    expect(normalizeOrigin(' HTTPS://Docs.Example.com/ ')).toBe('https://docs.example.com');
    expect(normalizeOrigin('http://127.0.0.1:8080//')).toBe('http://127.0.0.1:8080');
  });

  it('knows its skills by name@version and its backend tools by name', () => {
    expect(findSkill('kb-assistant@1')?.searchOnly).toBe(false);
    expect(findSkill('kb-search@1')?.searchOnly).toBe(true);
    expect(findSkill('kb-assistant@2')).toBeUndefined();
    expect(SKILL_SHAPE.test('kb-assistant@1')).toBe(true);
    expect(SKILL_SHAPE.test('KB@x')).toBe(false);
    expect(isBackendTool('kb_search')).toBe(true);
    expect(isBackendTool('open_link')).toBe(false);
    expect(isBackendTool('toString')).toBe(false);
  });
});
