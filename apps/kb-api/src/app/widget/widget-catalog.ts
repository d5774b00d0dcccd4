/**
 * What a widget key can offer: the skills it may run, the tools the widget knows and the theme
 * fields a key may set. Kept in one place so the admin validation, the public setup answer and
 * the OpenAPI fragment agree.
 */

export interface WidgetSkill {
  name: string;
  version: number;
  description: string;
  /** Backend tools the skill may propose (run by kb-api on exec-tool). */
  backendTools: string[];
  /** Tools the host page runs itself; offered only when the key enables host tools. */
  hostTools: string[];
  /** Every message becomes a search proposal instead of a chat answer. */
  searchOnly: boolean;
}

export const WIDGET_SKILLS: readonly WidgetSkill[] = [
  { name: 'kb-assistant', version: 1, description: 'Grounded answers over the key’s project, with knowledge-base search on /search.', backendTools: ['kb_search'], hostTools: ['highlight_element', 'open_link'], searchOnly: false },
  { name: 'kb-search', version: 1, description: 'Search only: every message proposes a knowledge-base search.', backendTools: ['kb_search'], hostTools: [], searchOnly: true },
];

export const DEFAULT_SKILL = 'kb-assistant@1';
export const SKILL_SHAPE = /^[a-z][a-z0-9-]{0,63}@[1-9][0-9]{0,5}$/;

export function findSkill(ref: string): WidgetSkill | undefined {
  return WIDGET_SKILLS.find((s) => `${s.name}@${s.version}` === ref);
}

/** A backend tool as the guardrails firewall sees it: its JSON schema bounds every argument. */
export const KB_SEARCH_TOOL = {
  name: 'kb_search',
  description: 'Search the knowledge base of the widget’s project.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 500 },
      limit: { type: 'integer', minimum: 1, maximum: 10 },
    },
    required: ['query'],
  },
} as const;

export const BACKEND_TOOLS = { kb_search: KB_SEARCH_TOOL } as const;
export type BackendToolName = keyof typeof BACKEND_TOOLS;
export const isBackendTool = (tool: string): tool is BackendToolName => Object.prototype.hasOwnProperty.call(BACKEND_TOOLS, tool);

export const LAUNCHER_SHAPES = ['circle', 'rounded', 'square'] as const;
export const DEFAULT_THEME = { accent: '#2563eb', background: '#ffffff', fontFamily: 'system-ui, sans-serif', launcherShape: 'circle', position: 'bottom-right', title: 'Ask our docs' };
export const WIDGET_POSITIONS = ['bottom-right', 'bottom-left'] as const;

/** Widget session statuses; the first three are the open ones (listed by sessions/current). */
export const OPEN_STATUSES = ['active', 'waiting_user', 'waiting_tool'] as const;
export const SESSION_STATUSES = [...OPEN_STATUSES, 'completed', 'aborted', 'blocked', 'error'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const SESSION_TOKEN_TTL_MS = 30 * 60_000;
export const MAX_SNAPSHOT_BYTES = 256 * 1024;
export const MAX_SESSION_STEPS = 100;
export const SESSION_STEPS_PER_MINUTE = 30;
export const IP_REQUESTS_PER_MINUTE = 120;
export const DEFAULT_RATE_LIMIT = 60;

/** `https://Example.com/` → `https://example.com`: the form origins are stored and compared in. */
export function normalizeOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '');
}
