import { applyDecorators, Controller, Get, HttpCode, Inject, Param, Post, Put, Req, UseFilters, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import {
  controlStates,
  emptyOutputCounts,
  Guardrails,
  GuardrailsSettingsService,
  KeysetPage,
  nestSettings,
  PostgresGuardrailsStores,
  totalOf,
} from '@platform/guardrails';
import { Clock } from '@platform/runtime';
import type { Request } from 'express';
import { GUARDRAILS, GUARDRAILS_STORES } from '../runtime/guardrails-runtime.module';
import { ApiMiddlewareGuard } from './api-middleware.guard';
import { EndpointName, envelope, GuardrailsApiError, GuardrailsEnvelopeFilter } from './envelope';
import { AuditListQuery, FirewallQuery, PageQuery, WindowQuery } from './dto/list-queries';
import { ApprovalDecisionBody } from './dto/approval-decision-body';
import * as schemas from './dto/response-schemas';
import { ApiEnvelope, ApiEnvelopeError, ApiGuarded, ApiQueried } from './dto/response-schemas';
import { settingsRefusal, SettingsUpdateBody, settingsValidationFailed } from './dto/settings-update-body';
import { TryScreenBody, TrySanitizeBody } from './dto/try-bodies';
import { EndpointBody, EndpointQuery } from './validated-input';
import { auditDetail, auditListItem, firewallItem, settingChange } from './views';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const APPROVAL_TOKEN = /^[A-Za-z0-9_\-.]{1,200}$/;

type AuthedRequest = Request & { principal?: Principal };
/** The acting user is always the authenticated caller, never a value from the body. */
const actorOf = (req: AuthedRequest): string | null => req.principal?.sub ?? null;

/** A [from, to] window from the query: default the trailing `defaultDays`; at most `maxDays`. */
function windowOf(query: WindowQuery, now: Date, defaultDays: number, maxDays: number): { from: Date; to: Date } {
  const to = query.to ?? now;
  let from = query.from ?? new Date(to.getTime() - defaultDays * DAY);
  if (to.getTime() - from.getTime() > maxDays * DAY) from = new Date(to.getTime() - maxDays * DAY);
  return { from, to };
}

/** A keyset page in its endpoint's envelope: the rows' views under `key`, the next cursor, the limit asked for. */
function pageEnvelope<Row>(name: EndpointName, key: string, page: KeysetPage<Row>, view: (row: Row) => unknown, limit: number) {
  return envelope(name, { [key]: page.entries.map(view), next_cursor: page.next_cursor, limit });
}

/** What approving and rejecting a parked call share in the document: the token, the optional body, the answers. */
const ApiApprovalDecision = () =>
  applyDecorators(
    ApiParam({ name: 'token', schema: { type: 'string', pattern: '^[A-Za-z0-9_\\-.]{1,200}$' }, description: 'The approval token' }),
    ApiBody({ type: ApprovalDecisionBody, required: false }),
    ApiEnvelope('approval-decision', schemas.decisionData),
    ApiEnvelopeError(404, 'Malformed token', 'approval-decision'),
    ApiEnvelopeError(409, 'HITL unavailable', 'approval-decision'),
    ApiEnvelopeError(422, 'Unknown, expired or oppositely decided token (decision_failed); or actor is not an object (validation_failed, data.errors.actor)', 'approval-decision'),
  );

/**
 * The guardrails admin API (spec area B), mounted under `api.prefix` only when `api.enabled`. Every
 * route passes the host middleware of `api.middleware` and answers in the v1 envelope.
 */
@ApiTags('guardrails')
@ApiGuarded()
@Controller()
@UseGuards(ApiMiddlewareGuard)
@UseFilters(GuardrailsEnvelopeFilter)
@RequireScopes(SCOPES.guardrailsAdmin)
export class GuardrailsApiController {
  constructor(
    private readonly clock: Clock,
    @Inject(GUARDRAILS) private readonly guardrails: Guardrails,
    @Inject(GUARDRAILS_STORES) private readonly stores: PostgresGuardrailsStores,
    private readonly settings: GuardrailsSettingsService,
  ) {}

  @Get('overview')
  @ApiOperation({ summary: 'Per-control state, 12-hour spark, 24-hour totals, ruleset version' })
  @ApiEnvelope('overview', schemas.overviewData)
  async overview() {
    const now = this.clock.now();
    const [spark, totals, pending] = await Promise.all([
      this.stores.audit.hourlyAttempts(now, 12),
      this.stores.audit.totals({ from: new Date(now.getTime() - DAY), to: now }),
      this.guardrails.hitlAvailable ? this.guardrails.countPendingApprovals() : Promise.resolve(0),
    ]);
    return envelope('overview', {
      // Attempts are not attributed to a control, so every control shows the same hourly series.
      controls: controlStates(this.guardrails.settings).map((c) => ({ ...c, spark: [...spark] })),
      counts_24h: { attempts: totals.attempts, blocked: totals.blocked, allowed: totals.attempts - totals.blocked, observed: totals.observed },
      totals: { attempts_24h: totals.attempts, blocked_24h: totals.blocked, observed_24h: totals.observed, pending_approvals: pending },
      ruleset_version: this.guardrails.rulesetVersion,
      generated_at: now.toISOString(),
    });
  }

  @Get('audit')
  @ApiOperation({ summary: 'Screened prompts, newest first (keyset pages)' })
  @ApiQueried('audit-list', AuditListQuery, schemas.auditListData)
  async auditList(@EndpointQuery('audit-list') q: AuditListQuery) {
    return pageEnvelope('audit-list', 'entries', await this.stores.audit.list(q), auditListItem, q.limit);
  }

  @Get('audit/trend')
  @ApiOperation({ summary: 'Per-UTC-day counts; total = blocked + allowed, observed ⊆ allowed', description: 'Default window: the trailing 30 days; at most 366.' })
  @ApiQueried('audit-trend', WindowQuery, schemas.auditTrendData)
  async auditTrend(@EndpointQuery('audit-trend') query: WindowQuery) {
    const { from, to, found: points } = await this.overWindow(query, (w) => this.stores.audit.trend(w), () => []);
    return envelope('audit-trend', { from, to, points });
  }

  @Get('audit/:id')
  @ApiOperation({ summary: 'One screened prompt in full with the matched span' })
  @ApiParam({ name: 'id', schema: { type: 'integer', minimum: 1 }, description: 'An audit entry id' })
  @ApiEnvelope('audit-detail', schemas.auditDetailData)
  @ApiEnvelopeError(404, 'No such entry', 'audit-detail')
  async auditDetail(@Param('id') id: string) {
    const entry = /^[1-9][0-9]{0,15}$/.test(id) ? await this.stores.audit.get(Number(id)) : null;
    if (!entry) throw new GuardrailsApiError(404, 'audit-detail', { error: 'not_found', message: `no audit entry ${id}` });
    return envelope('audit-detail', { entry: auditDetail(entry) });
  }

  @Get('firewall')
  @ApiOperation({ summary: 'Tool-firewall rejections, newest first (keyset pages)' })
  @ApiQueried('firewall', FirewallQuery, schemas.firewallData)
  async firewall(@EndpointQuery('firewall') q: FirewallQuery) {
    return pageEnvelope('firewall', 'entries', await this.stores.firewallLog.list(q), firewallItem, q.limit);
  }

  @Get('output/stats')
  @ApiOperation({ summary: 'Output-sanitization counts over a window (default 30 days)', description: 'At most 366 days; an inverted window covers nothing.' })
  @ApiQueried('output-stats', WindowQuery, schemas.outputStatsData)
  async outputStats(@EndpointQuery('output-stats') query: WindowQuery) {
    const { from, to, found: counts } = await this.overWindow(query, (w) => this.stores.outputStats.totals(w), emptyOutputCounts);
    return envelope('output-stats', { from, to, counts, total: totalOf(counts) });
  }

  /**
   * The ends of a report's window (the trailing 30 days by default, at most 366) and what `read`
   * finds in it. An inverted window is not swapped: it covers nothing, which `none` gives.
   */
  private async overWindow<T>(query: WindowQuery, read: (window: { from: Date; to: Date }) => Promise<T>, none: () => T) {
    const { from, to } = windowOf(query, this.clock.now(), 30, 366);
    const found = from <= to ? await read({ from, to }) : none();
    return { from: from.toISOString(), to: to.toISOString(), found };
  }

  @Get('approvals')
  @ApiOperation({ summary: 'Pending human approvals (newest 50) with the parked tool and its scoped arguments' })
  @ApiEnvelope('approval-list', schemas.approvalListData)
  async approvals() {
    return envelope('approval-list', { pending: await this.guardrails.listPendingApprovals(), hitl_available: this.guardrails.hitlAvailable });
  }

  @Post('approvals/:token/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve: the parked call runs once, in the host that owns the tool' })
  @ApiApprovalDecision()
  approve(@Param('token') token: string, @EndpointBody('approval-decision') body: ApprovalDecisionBody, @Req() req: AuthedRequest) {
    return this.decide(token, 'approve', body, req);
  }

  @Post('approvals/:token/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject: the parked call is discarded' })
  @ApiApprovalDecision()
  reject(@Param('token') token: string, @EndpointBody('approval-decision') body: ApprovalDecisionBody, @Req() req: AuthedRequest) {
    return this.decide(token, 'reject', body, req);
  }

  private async decide(token: string, action: 'approve' | 'reject', body: ApprovalDecisionBody, req: AuthedRequest) {
    if (!APPROVAL_TOKEN.test(token)) throw new GuardrailsApiError(404, 'approval-decision', { error: 'not_found', message: 'no such approval token' });
    const context = { principalId: actorOf(req), actor: body.actor };
    const result = action === 'approve' ? await this.guardrails.approve(token, context) : await this.guardrails.reject(token, context);
    if (result.decision === 'unavailable') throw new GuardrailsApiError(409, 'approval-decision', { ...result });
    if (result.decision === 'failed') throw new GuardrailsApiError(422, 'approval-decision', { ...result, message: 'the token is unknown, expired or already decided the other way' });
    return envelope('approval-decision', result);
  }

  @Get('settings')
  @ApiOperation({ summary: 'Effective value of every allow-listed setting (defaults overlaid with stored overrides), nested by group' })
  @ApiEnvelope('settings', schemas.settingsData)
  async getSettings() {
    return envelope('settings', { settings: nestSettings(await this.settings.effective()) });
  }

  @Put('settings')
  @ApiOperation({
    summary: 'Store overrides: all or nothing; non-overridable keys dropped; one change record per effective change; SettingsChanged published',
  })
  @ApiBody({ type: SettingsUpdateBody })
  @ApiEnvelope('settings', schemas.settingsUpdatedData)
  @ApiEnvelopeError(
    422,
    'A value is malformed (data.errors keyed settings.<dotted.key>) or settings is missing, empty or not an object (keyed settings); nothing stored',
    'settings',
  )
  @ApiEnvelopeError(503, 'The store failed; nothing changed', 'settings')
  async putSettings(@EndpointBody('settings', settingsRefusal) body: SettingsUpdateBody, @Req() req: AuthedRequest) {
    let result;
    try {
      result = await this.settings.update(body, actorOf(req));
    } catch {
      throw new GuardrailsApiError(503, 'settings', { error: 'persist_failed', message: 'the settings could not be stored; nothing changed' });
    }
    // The DTO has refused whatever the registry refuses; the service asks the same registry again
    // before it writes, so should the two ever disagree, the answer is the same 422.
    if (!result.ok) throw new GuardrailsApiError(422, 'settings', settingsValidationFailed(result.errors));
    // This host applies the change at once; the others get it through SettingsChanged.
    if (result.changes.length) this.guardrails.updateSettings(result.settings);
    return envelope('settings', { settings: nestSettings(result.settings), changed: result.changes.map((c) => c.key), dropped: result.dropped });
  }

  @Get('settings/changes')
  @ApiOperation({ summary: 'Append-only change log, newest first' })
  @ApiQueried('settings-changes', PageQuery, schemas.settingsChangesData)
  async settingsChanges(@EndpointQuery('settings-changes') q: PageQuery) {
    return pageEnvelope('settings-changes', 'changes', await this.settings.listChanges(q), settingChange, q.limit);
  }

  @Post('try/screen')
  @HttpCode(200)
  @ApiOperation({ summary: 'Screen a prompt with the live settings; nothing is persisted' })
  @ApiBody({ type: TryScreenBody })
  @ApiEnvelope('try-screen', schemas.tryScreenData)
  @ApiEnvelopeError(422, 'prompt is not a string', 'try-screen')
  async tryScreen(@EndpointBody('try-screen') body: TryScreenBody) {
    return envelope('try-screen', await this.guardrails.tryScreen(body.prompt));
  }

  @Post('try/sanitize')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run a text through HTML handling, markdown defanging and PII redaction; nothing is persisted' })
  @ApiBody({ type: TrySanitizeBody })
  @ApiEnvelope('try-sanitize', schemas.trySanitizeData)
  @ApiEnvelopeError(422, 'text is not a string', 'try-sanitize')
  trySanitize(@EndpointBody('try-sanitize') body: TrySanitizeBody) {
    return envelope('try-sanitize', this.guardrails.trySanitize(body.text));
  }
}
