import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, Req, UseFilters, UseGuards } from '@nestjs/common';
import { Principal, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import {
  controlStates,
  emptyOutputCounts,
  Guardrails,
  GuardrailsSettingsService,
  nestSettings,
  PostgresGuardrailsStores,
  systemClock,
  totalOf,
} from '@platform/guardrails';
import type { Request } from 'express';
import { GUARDRAILS, GUARDRAILS_STORES } from '../runtime/guardrails-runtime.module';
import { ApiMiddlewareGuard } from './api-middleware.guard';
import { envelope, GuardrailsApiError, GuardrailsEnvelopeFilter } from './envelope';
import { QueryParams } from './query-params';
import { auditDetail, auditListItem, firewallItem, settingChange } from './views';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const APPROVAL_TOKEN = /^[A-Za-z0-9_\-.]{1,200}$/;

type AuthedRequest = Request & { principal?: Principal };
/** The acting user is always the authenticated caller, never a value from the body. */
const actorOf = (req: AuthedRequest): string | null => req.principal?.sub ?? null;

/** A [from, to] window from the query: default the trailing `defaultDays`; at most `maxDays`. */
function windowOf(params: QueryParams, now: Date, defaultDays: number, maxDays: number): { from: Date; to: Date } {
  const to = params.date('to', true) ?? now;
  let from = params.date('from') ?? new Date(to.getTime() - defaultDays * DAY);
  if (to.getTime() - from.getTime() > maxDays * DAY) from = new Date(to.getTime() - maxDays * DAY);
  return { from, to };
}

/**
 * The guardrails admin API (spec area B), mounted under `api.prefix` only when `api.enabled`. Every
 * route passes the host middleware of `api.middleware` and answers in the v1 envelope.
 */
@Controller()
@UseGuards(ApiMiddlewareGuard)
@UseFilters(GuardrailsEnvelopeFilter)
@RequireScopes(SCOPES.guardrailsAdmin)
export class GuardrailsApiController {
  private readonly clock = systemClock;

  constructor(
    @Inject(GUARDRAILS) private readonly guardrails: Guardrails,
    @Inject(GUARDRAILS_STORES) private readonly stores: PostgresGuardrailsStores,
    private readonly settings: GuardrailsSettingsService,
  ) {}

  @Get('overview')
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
  async auditList(@Query() query: Record<string, unknown>) {
    const p = new QueryParams(query, 'audit-list');
    const q = {
      limit: p.limit(),
      cursor: p.positiveInt('cursor'),
      blocked: p.boolean('blocked'),
      rule_id: p.string('rule_id', 200) || undefined,
      principal_id: p.string('principal_id', 200) || undefined,
      q: p.string('q', 500) || undefined,
      from: p.date('from'),
      to: p.date('to', true),
    };
    p.done();
    const page = await this.stores.audit.list(q);
    return envelope('audit-list', { entries: page.entries.map(auditListItem), next_cursor: page.next_cursor, limit: q.limit });
  }

  @Get('audit/trend')
  async auditTrend(@Query() query: Record<string, unknown>) {
    const p = new QueryParams(query, 'audit-trend');
    const { from, to } = windowOf(p, this.clock.now(), 30, 366);
    p.done();
    const points = from <= to ? await this.stores.audit.trend({ from, to }) : [];
    return envelope('audit-trend', { from: from.toISOString(), to: to.toISOString(), points });
  }

  @Get('audit/:id')
  async auditDetail(@Param('id') id: string) {
    const entry = /^[1-9][0-9]{0,15}$/.test(id) ? await this.stores.audit.get(Number(id)) : null;
    if (!entry) throw new GuardrailsApiError(404, 'audit-detail', { error: 'not_found', message: `no audit entry ${id}` });
    return envelope('audit-detail', { entry: auditDetail(entry) });
  }

  @Get('firewall')
  async firewall(@Query() query: Record<string, unknown>) {
    const p = new QueryParams(query, 'firewall');
    const q = {
      limit: p.limit(),
      cursor: p.positiveInt('cursor'),
      principal_id: p.string('principal_id', 200) || undefined,
      q: p.string('q', 500) || undefined,
      from: p.date('from'),
      to: p.date('to', true),
    };
    p.done();
    const page = await this.stores.firewallLog.list(q);
    return envelope('firewall', { entries: page.entries.map(firewallItem), next_cursor: page.next_cursor, limit: q.limit });
  }

  @Get('output/stats')
  async outputStats(@Query() query: Record<string, unknown>) {
    const p = new QueryParams(query, 'output-stats');
    const { from, to } = windowOf(p, this.clock.now(), 30, 366);
    p.done();
    // An inverted window is not swapped: it covers nothing.
    const counts = from <= to ? await this.stores.outputStats.totals({ from, to }) : emptyOutputCounts();
    return envelope('output-stats', { from: from.toISOString(), to: to.toISOString(), counts, total: totalOf(counts) });
  }

  @Get('approvals')
  async approvals() {
    return envelope('approval-list', { pending: await this.guardrails.listPendingApprovals(), hitl_available: this.guardrails.hitlAvailable });
  }

  @Post('approvals/:token/approve')
  @HttpCode(200)
  approve(@Param('token') token: string, @Body() body: unknown, @Req() req: AuthedRequest) {
    return this.decide(token, 'approve', body, req);
  }

  @Post('approvals/:token/reject')
  @HttpCode(200)
  reject(@Param('token') token: string, @Body() body: unknown, @Req() req: AuthedRequest) {
    return this.decide(token, 'reject', body, req);
  }

  private async decide(token: string, action: 'approve' | 'reject', body: unknown, req: AuthedRequest) {
    if (!APPROVAL_TOKEN.test(token)) throw new GuardrailsApiError(404, 'approval-decision', { error: 'not_found', message: 'no such approval token' });
    const clientActor = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)['actor'] : undefined;
    const context = { principalId: actorOf(req), actor: clientActor };
    const result = action === 'approve' ? await this.guardrails.approve(token, context) : await this.guardrails.reject(token, context);
    if (result.decision === 'unavailable') throw new GuardrailsApiError(409, 'approval-decision', { ...result });
    if (result.decision === 'failed') throw new GuardrailsApiError(422, 'approval-decision', { ...result, message: 'the token is unknown, expired or already decided the other way' });
    return envelope('approval-decision', result);
  }

  @Get('settings')
  async getSettings() {
    return envelope('settings', { settings: nestSettings(await this.settings.effective()) });
  }

  @Put('settings')
  async putSettings(@Body() body: unknown, @Req() req: AuthedRequest) {
    let result;
    try {
      result = await this.settings.update(body, actorOf(req));
    } catch {
      throw new GuardrailsApiError(503, 'settings', { error: 'persist_failed', message: 'the settings could not be stored; nothing changed' });
    }
    if (!result.ok) {
      const errors = Object.fromEntries(Object.entries(result.errors).map(([k, v]) => [k === 'settings' ? k : `settings.${k}`, v]));
      throw new GuardrailsApiError(422, 'settings', { error: 'validation_failed', message: 'some settings are invalid; nothing was stored', errors });
    }
    // This host applies the change at once; the others get it through SettingsChanged.
    if (result.changes.length) this.guardrails.updateSettings(result.settings);
    return envelope('settings', { settings: nestSettings(result.settings), changed: result.changes.map((c) => c.key), dropped: result.dropped });
  }

  @Get('settings/changes')
  async settingsChanges(@Query() query: Record<string, unknown>) {
    const p = new QueryParams(query, 'settings-changes');
    const q = { limit: p.limit(), cursor: p.positiveInt('cursor') };
    p.done();
    const page = await this.settings.listChanges(q);
    return envelope('settings-changes', { changes: page.entries.map(settingChange), next_cursor: page.next_cursor, limit: q.limit });
  }

  @Post('try/screen')
  @HttpCode(200)
  async tryScreen(@Body() body: unknown) {
    const prompt = stringField(body, 'prompt', 'try-screen');
    return envelope('try-screen', await this.guardrails.tryScreen(prompt));
  }

  @Post('try/sanitize')
  @HttpCode(200)
  trySanitize(@Body() body: unknown) {
    const text = stringField(body, 'text', 'try-sanitize');
    return envelope('try-sanitize', this.guardrails.trySanitize(text));
  }
}

/** A sandbox body field: absent means "", anything but a string is a 422 naming the field. */
function stringField(body: unknown, field: string, endpoint: 'try-screen' | 'try-sanitize'): string {
  const value = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[field] : undefined;
  if (value === undefined) return '';
  if (typeof value !== 'string') {
    throw new GuardrailsApiError(422, endpoint, { error: 'validation_failed', message: `${field} must be a string`, errors: { [field]: ['must be a string'] } });
  }
  return value;
}
