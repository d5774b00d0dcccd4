import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../admin/pagination';
import { LAUNCHER_SHAPES, MAX_SNAPSHOT_BYTES, OPEN_STATUSES, SESSION_STATUSES, WIDGET_POSITIONS } from './widget-catalog';
import { answer, body, dateTime, json, obj, page, ref } from '../openapi-parts';

/** OpenAPI paths and schemas of KbWidgetModule, merged into the kb-api document by ../openapi.ts. */

const coded = (codes: string) => answer(`\`{error, message}\` with error ${codes}`, ref('Error'));
const invalid = answer('Validation failure `{message, errors}` naming each field', ref('ValidationError'));

// Admin surfaces.
const guest = answer('Guest `{message: "Unauthenticated."}`', ref('Message'));
const notSuperAdmin = answer('Not a super-admin (`can:manageWidgetKeys`) `{message}`', ref('Message'));
const notAdmin = answer('Neither admin nor super-admin (`can:viewWidgetSessions`) `{message}`', ref('Message'));
const keyGates = { '401': guest, '403': notSuperAdmin };
const sessionGates = { '401': guest, '403': notAdmin };
const missingKey = answer('Unknown or another tenant’s key `{error: "not_found", message}`', ref('Error'));
const missingSession = answer('Unknown or another tenant’s session `{error: "not_found", message}`', ref('Error'));
const keyId = { name: 'id', in: 'path', required: true, description: 'Widget key id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } };
const sessionId = { name: 'id', in: 'path', required: true, description: 'Widget session id', schema: { type: 'string', format: 'uuid' } };
const pageParams = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE } },
];
const version = { type: 'integer', minimum: 1, description: 'The key’s current identity_credential_version (compare-and-set)' };
const conflict = answer('Stale identity_credential_version `{error: "identity_credential_conflict", message}`', ref('Error'));
const keyData = obj({ data: ref('WidgetKey') });

// Public widget API.
const widgetAuth = {
  security: [],
  parameters: [
    { name: 'X-Widget-Key', in: 'header', required: false, description: 'Public key pk_… (browser and proxy modes; not needed with a wt_/wu_ token)', schema: { type: 'string' } },
    { name: 'Authorization', in: 'header', required: false, description: '`Bearer sk_…` (proxy mode), `Bearer wt_…` (single-use session token) or `Bearer wu_…` (user token)', schema: { type: 'string' } },
    { name: 'Origin', in: 'header', required: false, description: 'Browser mode: must be one of the key’s allowed_origins', schema: { type: 'string' } },
  ],
};
const widgetErrors = {
  '401': coded('widget_key_missing, widget_key_invalid or session_token_invalid'),
  '403': coded('widget_key_inactive or origin_not_allowed'),
  '429': {
    description: '`{error: "rate_limited"}` (120/min per IP, or the key’s rate_limit per key and IP) with Retry-After',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds' } },
    content: json(ref('Error')),
  },
};
const withSession = (op: Record<string, unknown>) => ({ ...widgetAuth, ...op, parameters: [sessionId, ...widgetAuth.parameters] });
const snapshot = { type: 'object', description: `The host page as the widget sees it (at most ${MAX_SNAPSHOT_BYTES / 1024} KiB as JSON)` };
const sessionRef = obj({ id: { type: 'string', format: 'uuid' }, status: { enum: SESSION_STATUSES } });
const stepErrors = {
  '404': missingSessionPublic(),
  '409': coded('session_closed (aborted, completed, blocked or error)'),
  '422': answer('`{message, errors}`, or `{error}` snapshot_too_large / session_blocked (100 steps)', ref('Error')),
};
function missingSessionPublic() {
  return answer('Another key’s or identity’s session, or not a session id `{error: "not_found"}`', ref('Error'));
}

export const WIDGET_PATHS: Record<string, object> = {
  '/api/admin/widget-keys': {
    get: {
      summary: 'Widget keys of the active tenant, newest first (never their secrets)',
      parameters: [...pageParams, { name: 'search', in: 'query', schema: { type: 'string', maxLength: 255 }, description: 'In label, project key or public key' }],
      responses: { '200': answer('A page', page(ref('WidgetKey'))), '422': invalid, ...keyGates },
    },
    post: {
      summary: 'Creates a key; the proxy secret (and identity secret, with user_auth_enabled) are shown only here',
      requestBody: body(ref('WidgetKeyCreate')),
      responses: {
        '201': answer(
          'The key and its secrets',
          obj({ data: ref('WidgetKey'), plain_secret: { type: 'string', pattern: '^sk_' }, public_key: { type: 'string', pattern: '^pk_' }, identity_secret: { type: 'string', pattern: '^wis_', description: 'Only with user_auth_enabled' } }),
        ),
        '422': invalid,
        ...keyGates,
      },
    },
  },
  '/api/admin/widget-keys/{id}': {
    get: { summary: 'One key', parameters: [keyId], responses: { '200': answer('The key', keyData), '404': missingKey, ...keyGates } },
    patch: {
      summary: 'Updates a key (enable/disable and other fields); an identity mutation: carries identity_credential_version and moves it',
      parameters: [keyId],
      requestBody: body(ref('WidgetKeyUpdate')),
      responses: { '200': answer('The key at its new version', keyData), '404': missingKey, '409': conflict, '422': invalid, ...keyGates },
    },
    delete: { summary: 'Deletes a key with its tokens and sessions', parameters: [keyId], responses: { '204': { description: 'Deleted' }, '404': missingKey, ...keyGates } },
  },
  '/api/admin/widget-keys/{id}/rotate': {
    post: {
      summary: 'New proxy secret, shown once; the old one stops working',
      parameters: [keyId],
      responses: { '200': answer('The key and its new secret', obj({ data: ref('WidgetKey'), plain_secret: { type: 'string', pattern: '^sk_' } })), '404': missingKey, ...keyGates },
    },
  },
  '/api/admin/widget-keys/{id}/revoke': {
    post: { summary: 'Revokes the key for good (inactive, cannot be enabled again)', parameters: [keyId], responses: { '200': answer('The revoked key', keyData), '404': missingKey, ...keyGates } },
  },
  '/api/admin/widget-keys/{id}/rotate-identity-secret': {
    post: {
      summary: 'New identity secret, shown once; compare-and-set on identity_credential_version; user tokens of the old version stop working',
      parameters: [keyId],
      requestBody: body(obj({ identity_credential_version: version }, ['identity_credential_version'])),
      responses: {
        '200': answer('The key at its new version and the secret', obj({ data: ref('WidgetKey'), identity_secret: { type: 'string', pattern: '^wis_' } })),
        '404': missingKey,
        '409': conflict,
        '422': invalid,
        ...keyGates,
      },
    },
  },
  '/api/admin/widget-sessions': {
    get: {
      summary: 'Widget sessions of the active tenant, most recently active first',
      parameters: [
        ...pageParams,
        { name: 'status', in: 'query', schema: { enum: SESSION_STATUSES } },
        { name: 'key', in: 'query', schema: { type: 'integer', minimum: 1 }, description: 'Widget key id' },
      ],
      responses: { '200': answer('A page', page(ref('WidgetSession'))), '422': invalid, ...sessionGates },
    },
  },
  '/api/admin/widget-sessions/{id}': {
    get: { summary: 'One session', parameters: [sessionId], responses: { '200': answer('The session', obj({ data: ref('WidgetSession') })), '404': missingSession, ...sessionGates } },
  },
  '/api/admin/widget-sessions/{id}/replay': {
    get: {
      summary: 'The session’s recorded steps (personal data masked)',
      parameters: [sessionId],
      responses: { '200': answer('Steps', obj({ session: ref('WidgetSession'), steps: { type: 'array', items: ref('WidgetStep') } })), '404': missingSession, ...sessionGates },
    },
  },

  '/api/widget/setup': {
    get: {
      ...widgetAuth,
      summary: 'The widget’s configuration; the project comes from the key',
      parameters: [...widgetAuth.parameters, { name: 'skill', in: 'query', schema: { type: 'string' }, description: 'Expected skill name@N' }],
      responses: {
        '200': answer('Setup', ref('WidgetSetup')),
        ...widgetErrors,
        '403': coded('widget_key_inactive, origin_not_allowed or skill_not_allowed'),
        '404': coded('skill_not_found'),
      },
    },
  },
  '/api/widget/session-token': {
    post: {
      ...widgetAuth,
      summary: 'A single-use session token (wt_…, 30 minutes) bound to the caller’s origin; with session_id it opens only that session and carries its identity',
      requestBody: body(obj({ session_id: { type: 'string', format: 'uuid' } }), false),
      responses: { '201': answer('Token', ref('WidgetToken')), '404': missingSessionPublic(), '422': invalid, ...widgetErrors },
    },
  },
  '/api/widget/user-token': {
    post: {
      security: [],
      summary: 'A token for a host’s signed-in user (wu_…, 30 minutes): the host’s server sends X-Widget-Key and `Bearer <identity secret>`',
      parameters: [
        { name: 'X-Widget-Key', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'Authorization', in: 'header', required: true, description: '`Bearer wis_…`', schema: { type: 'string' } },
      ],
      requestBody: body(obj({ subject: { type: 'string', maxLength: 255 }, origin: { type: 'string', format: 'uri' }, locale: { type: 'string', pattern: '^[a-z]{2}(-[A-Z]{2})?$' } }, ['subject', 'origin'])),
      responses: {
        '201': answer('Token', { allOf: [ref('WidgetToken'), obj({ locale: { type: 'string' } })] }),
        '401': coded('widget_key_missing, widget_key_invalid or identity_credentials_invalid'),
        '403': coded('widget_key_inactive or origin_not_allowed'),
        '422': invalid,
        '429': widgetErrors['429'],
      },
    },
  },
  '/api/widget/sessions/start': {
    post: {
      ...widgetAuth,
      summary: 'Opens a session; a message is answered (grounded chat over the key’s project), proposes a tool, or is blocked',
      requestBody: body(obj({ snapshot, message: { type: 'string', maxLength: 10000 }, page_url: { type: 'string', format: 'uri' } }, ['snapshot'])),
      responses: { '200': answer('The reply', ref('WidgetReply')), '422': stepErrors['422'], ...widgetErrors },
    },
  },
  '/api/widget/sessions/current': {
    get: {
      ...widgetAuth,
      summary: 'The caller’s open sessions (active, waiting_user, waiting_tool) by updated_at then id, descending; needs a session or user token (the identity)',
      responses: {
        '200': answer('Sessions', obj({ data: { type: 'array', items: obj({ id: { type: 'string', format: 'uuid' }, status: { enum: OPEN_STATUSES }, page_url: { type: 'string', nullable: true }, step_count: { type: 'integer' }, created_at: dateTime, updated_at: dateTime }) } })),
        ...widgetErrors,
      },
    },
  },
  '/api/widget/sessions/{id}/step': {
    post: withSession({
      summary: 'A further message and/or the result of the host tool the last tool_call asked for',
      requestBody: body(obj({ snapshot, message: { type: 'string', maxLength: 10000 }, tool_result: { type: 'object' } }, ['snapshot'])),
      responses: {
        '200': answer('The reply', ref('WidgetReply')),
        ...widgetErrors,
        ...stepErrors,
        '409': coded('session_closed, or session_not_active (a tool_result while no tool call waits)'),
        '429': answer('rate_limited, or session_rate_limited (30 steps a minute per session), with Retry-After', ref('Error')),
      },
    }),
  },
  '/api/widget/sessions/{id}/exec-tool': {
    post: withSession({
      summary: 'Runs a backend tool (kb_search) through the guardrails tool firewall; a refused call is reported, not run',
      requestBody: body(obj({ tool: { type: 'string' }, args: { type: 'object' } }, ['tool'])),
      responses: {
        '200': answer(
          '`type: tool_result` with `result`, or `type: tool_refused` with `reason`, `violations`, `message`',
          obj({ session: sessionRef, type: { enum: ['tool_result', 'tool_refused'] }, tool: { type: 'string' }, result: { type: 'object' }, reason: { type: 'string' }, violations: { type: 'object', additionalProperties: { type: 'string' } }, message: { type: 'string' } }),
        ),
        ...widgetErrors,
        ...stepErrors,
        '422': answer('`{error: "tool_not_enabled"}` (not a backend tool of the key’s skill), session_blocked, or `{message, errors}`', ref('Error')),
        '429': answer('rate_limited or session_rate_limited, with Retry-After', ref('Error')),
      },
    }),
  },
  '/api/widget/sessions/{id}/cancel': {
    post: withSession({
      summary: 'Aborts an open session',
      responses: { '200': answer('Aborted', obj({ session: obj({ id: { type: 'string', format: 'uuid' }, status: { enum: ['aborted'] } }) })), '404': missingSessionPublic(), '409': coded('session_closed'), ...widgetErrors },
    }),
  },
  '/api/widget/sessions/{id}/replay': {
    get: withSession({
      summary: 'The session’s recorded steps, personal data masked',
      responses: { '200': answer('Steps', obj({ session: sessionRef, steps: { type: 'array', items: ref('WidgetStep') } })), '404': missingSessionPublic(), ...widgetErrors },
    }),
    post: withSession({
      summary: 'The same as GET (the route is also listed among the widget’s POST routes)',
      responses: { '200': answer('Steps', obj({ session: sessionRef, steps: { type: 'array', items: ref('WidgetStep') } })), '404': missingSessionPublic(), ...widgetErrors },
    }),
  },
  '/widget/embed.js': {
    get: {
      security: [],
      summary: 'The embeddable widget script (no dependencies; renders in a Shadow DOM); configure with window.KbWidgetConfig = {apiBase, publicKey}',
      responses: { '200': { description: 'JavaScript', content: { 'text/javascript': { schema: { type: 'string' } } } } },
    },
  },
};

const theme = obj({
  accent: { type: 'string', description: 'Hex colour' },
  background: { type: 'string', description: 'Hex colour' },
  fontFamily: { type: 'string', maxLength: 200 },
  launcherShape: { enum: LAUNCHER_SHAPES },
  position: { enum: WIDGET_POSITIONS },
  title: { type: 'string', maxLength: 80 },
});
const keyFields = {
  allowed_origins: { type: 'array', maxItems: 50, items: { type: 'string' }, description: 'scheme://host[:port]; stored lowercased without trailing slash; empty denies every origin' },
  rate_limit: { type: 'integer', minimum: 1, maximum: 1000, default: 60, description: 'Requests a minute per key and client IP' },
  skill: { type: 'string', description: 'name@N: kb-assistant@1 (default) or kb-search@1' },
  host_tools_enabled: { type: 'boolean', default: false },
  user_auth_enabled: { type: 'boolean', default: false },
  theme: ref('WidgetTheme'),
};

export const WIDGET_SCHEMAS: Record<string, object> = {
  WidgetTheme: theme,
  WidgetKeyCreate: obj({ label: { type: 'string', maxLength: 120 }, project_key: { type: 'string', maxLength: 120 }, ...keyFields }, ['label', 'project_key']),
  WidgetKeyUpdate: obj({ identity_credential_version: version, label: { type: 'string', maxLength: 120 }, project_key: { type: 'string', maxLength: 120 }, active: { type: 'boolean' }, ...keyFields }, ['identity_credential_version']),
  WidgetKey: obj({
    id: { type: 'integer' },
    label: { type: 'string' },
    project_key: { type: 'string' },
    public_key: { type: 'string' },
    ...keyFields,
    has_identity_secret: { type: 'boolean' },
    active: { type: 'boolean' },
    revoked_at: { type: 'string', format: 'date-time', nullable: true },
    identity_credential_version: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  }),
  WidgetSession: obj({
    id: { type: 'string', format: 'uuid' },
    key_id: { type: 'integer' },
    key_label: { type: 'string' },
    project_key: { type: 'string' },
    status: { enum: SESSION_STATUSES },
    origin: { type: 'string', nullable: true },
    page_url: { type: 'string', nullable: true },
    step_count: { type: 'integer' },
    has_identity: { type: 'boolean' },
    created_at: dateTime,
    updated_at: dateTime,
  }),
  WidgetStep: obj({
    step_index: { type: 'integer' },
    kind: { enum: ['start', 'message', 'answer', 'blocked', 'tool_call', 'tool_result', 'tool_refused', 'cancel'] },
    tool: { type: 'string', nullable: true },
    args_json: { description: 'Masked arguments or text' },
    diagnostic_json: { description: 'Outcome details (confidence, refusal reason, violations)' },
    created_at: dateTime,
  }),
  WidgetToken: obj({ token: { type: 'string' }, expires_at: dateTime }, ['token', 'expires_at']),
  WidgetSetup: obj({
    skill: obj({ name: { type: 'string' }, version: { type: 'integer' }, ref: { type: 'string' }, description: { type: 'string' } }),
    project: obj({ key: { type: 'string' }, name: { type: 'string' } }),
    tools_enabled: { type: 'array', items: { type: 'string' } },
    auto_annotation_rules: { type: 'array', items: { type: 'object' } },
    default_policies: { type: 'object' },
    default_locale: { type: 'string' },
    user_auth_enabled: { type: 'boolean' },
    theme: ref('WidgetTheme'),
  }),
  WidgetReply: obj({
    session: sessionRef,
    type: { enum: ['message', 'tool_call', 'blocked'] },
    answer: { type: 'string', nullable: true, description: 'type message: the grounded answer (null when no message was sent)' },
    citations: { type: 'array', items: { type: 'object' }, description: 'type message: as in POST /api/kb/chat' },
    confidence: { type: 'integer' },
    meta: { type: 'object' },
    tool_call: obj({ tool: { type: 'string' }, args: { type: 'object' }, confirmation_required: { type: 'boolean' }, is_be_tool: { type: 'boolean' }, is_host_tool: { type: 'boolean' } }),
    reason: { type: 'string', description: 'type blocked: the refusal' },
  }),
};
