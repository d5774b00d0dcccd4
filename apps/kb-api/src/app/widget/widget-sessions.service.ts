import { Injectable } from '@nestjs/common';
import { HeaderSink } from '@platform/contracts';
import { randomUUID } from 'node:crypto';
import { ThrottleService } from '../auth/throttle.service';
import { ChatService } from '../chat/chat.service';
import { ChatRequestDto } from '../chat/dto/chat.dto';
import { KbError, KbValidationError } from '../errors/kb-errors';
import { ExecToolDto, StartSessionDto, StepDto } from './dto/widget-public.dto';
import { maskPii } from './pii-mask';
import { DEFAULT_SKILL, findSkill, OPEN_STATUSES, isBackendTool, MAX_SESSION_STEPS, MAX_SNAPSHOT_BYTES, SESSION_STEPS_PER_MINUTE } from './widget-catalog';
import type { WidgetCaller } from './widget-key.guard';
import { WidgetSessionRow, WidgetSessionsRepository } from './widget-sessions.repository';
import { WidgetToolsService } from './widget-tools.service';

/** `/search <terms>` asks for the search tool instead of an answer. */
const SEARCH_COMMAND = /^\/search\s+(.+)$/s;
const OPEN_LIST_LIMIT = 50;

const notFound = () => new KbError(404, 'not_found', 'Widget session not found.');
const closed = () => new KbError(409, 'session_closed', 'This widget session is closed.');
const notWaiting = () => new KbError(409, 'session_not_active', 'No tool call is waiting for a result in this session.');
const sessionView = (s: WidgetSessionRow) => ({ id: s.id, status: s.status });

/**
 * The widget's conversations: a session is opened with a snapshot of the host page, then each
 * step either asks the knowledge base (grounded chat over the key's project), proposes a tool, or
 * reports a host tool's result. Steps and page snapshots are stored with personal data masked.
 */
@Injectable()
export class WidgetSessionsService {
  constructor(
    private readonly sessions: WidgetSessionsRepository,
    private readonly chat: ChatService,
    private readonly tools: WidgetToolsService,
    private readonly throttle: ThrottleService,
  ) {}

  async start(caller: WidgetCaller, dto: StartSessionDto) {
    checkSnapshot(dto.snapshot);
    const { key } = caller;
    let session = await this.sessions.create({
      id: randomUUID(),
      tenantId: key.tenant_id,
      keyId: key.id,
      projectKey: key.project_key,
      identity: caller.identity,
      origin: caller.origin,
      pageUrl: dto.page_url ?? null,
      snapshot: maskPii(dto.snapshot) as object,
    });
    await this.sessions.appendStep(key.tenant_id, session.id, { kind: 'start', args: maskPii({ page_url: dto.page_url ?? null }), diagnostic: { mode: caller.mode } });
    if (dto.message === undefined) {
      session = await this.sessions.setStatus(session.id, 'waiting_user', null);
      return { session: sessionView(session), type: 'message', answer: null, citations: [], confidence: 0, meta: {} };
    }
    return this.respond(caller, session, dto.message);
  }

  async step(caller: WidgetCaller, id: string, dto: StepDto, res: HeaderSink) {
    if (dto.message === undefined && dto.tool_result === undefined) {
      throw new KbValidationError({ message: ['The message field is required when no tool result is given.'] });
    }
    checkSnapshot(dto.snapshot);
    if (dto.tool_result !== undefined) {
      // Refused before the step is counted: a result nobody asked for is not a step.
      const before = await this.visible(caller, id);
      if ((OPEN_STATUSES as readonly string[]).includes(before.status) && before.status !== 'waiting_tool') throw notWaiting();
    }
    let session = await this.advance(caller, id, maskPii(dto.snapshot) as object, res);
    if (dto.tool_result !== undefined) {
      if (session.status !== 'waiting_tool' || !session.pending_tool) throw notWaiting();
      await this.sessions.appendStep(session.tenant_id, session.id, { kind: 'tool_result', tool: session.pending_tool.tool, args: maskPii(dto.tool_result), diagnostic: { source: 'host' } });
      session = await this.sessions.setStatus(session.id, 'active', null);
    }
    if (dto.message === undefined) {
      session = await this.sessions.setStatus(session.id, 'waiting_user', null);
      return { session: sessionView(session), type: 'message', answer: null, citations: [], confidence: 0, meta: {} };
    }
    return this.respond(caller, session, dto.message);
  }

  /** Runs a backend tool of the key's skill through the tool firewall. */
  async execTool(caller: WidgetCaller, id: string, dto: ExecToolDto, res: HeaderSink) {
    const skill = findSkill(caller.key.skill ?? DEFAULT_SKILL);
    if (!isBackendTool(dto.tool) || !skill?.backendTools.includes(dto.tool)) {
      throw new KbError(422, 'tool_not_enabled', `The tool ${dto.tool} is not a backend tool of this widget.`);
    }
    const tool = dto.tool;
    let session = await this.advance(caller, id, null, res);
    const args = dto.args ?? (session.pending_tool?.tool === tool ? session.pending_tool.args : {});
    const run = await this.tools.run(tool, args, {
      tenantId: session.tenant_id,
      projectKey: session.project_key,
      principalId: caller.identity,
      sessionId: session.id,
      credential: { mode: caller.mode, origin: caller.origin, identityCredentialVersion: caller.key.identity_credential_version },
    });
    if (run.outcome === 'refused') {
      await this.sessions.appendStep(session.tenant_id, session.id, { kind: 'tool_refused', tool, args: maskPii(args), diagnostic: { reason: run.reason, violations: maskPii(run.violations) } });
      session = await this.sessions.setStatus(session.id, 'waiting_user', null);
      return { session: sessionView(session), type: 'tool_refused', tool, reason: run.reason, violations: run.violations, message: run.message };
    }
    const resultCount = Array.isArray(run.result['results']) ? run.result['results'].length : 0;
    await this.sessions.appendStep(session.tenant_id, session.id, { kind: 'tool_result', tool, args: maskPii(run.arguments), diagnostic: { source: 'backend', result_count: resultCount } });
    session = await this.sessions.setStatus(session.id, 'waiting_user', null);
    return { session: sessionView(session), type: 'tool_result', tool, result: run.result };
  }

  /** How a tool call this session parked for approval ended: pending, running, its result, or a rejection or expiry. */
  async parkedCall(caller: WidgetCaller, id: string, approvalId: string) {
    const session = await this.visible(caller, id);
    const call = await this.tools.parkedCall(session.tenant_id, session.id, approvalId);
    if (!call) throw new KbError(404, 'not_found', 'This session parked no tool call with this id.');
    return { data: call };
  }

  async cancel(caller: WidgetCaller, id: string) {
    await this.visible(caller, id);
    const session = await this.sessions.cancel(caller.key.id, id);
    if (!session) throw closed();
    await this.sessions.appendStep(session.tenant_id, session.id, { kind: 'cancel' });
    return { session: { id: session.id, status: 'aborted' } };
  }

  async replay(caller: WidgetCaller, id: string) {
    const session = await this.visible(caller, id);
    return { session: sessionView(session), steps: presentSteps(await this.sessions.steps(session.id)) };
  }

  /** The caller's open sessions: only a token carries an identity, so browser and proxy calls have none to list. */
  async current(caller: WidgetCaller) {
    if (caller.identity === null) throw new KbError(401, 'session_token_invalid', 'Listing sessions needs a session or user token.');
    const rows = await this.sessions.openFor(caller.key.id, caller.identity, OPEN_LIST_LIMIT);
    return { data: rows.map((s) => ({ id: s.id, status: s.status, page_url: s.page_url, step_count: s.step_count, created_at: s.created_at, updated_at: s.updated_at })) };
  }

  /** A message either proposes the search tool or is answered by grounded chat over the key's project. */
  private async respond(caller: WidgetCaller, session: WidgetSessionRow, message: string) {
    const tenantId = session.tenant_id;
    const search = SEARCH_COMMAND.exec(message)?.[1] ?? (findSkill(caller.key.skill ?? DEFAULT_SKILL)?.searchOnly ? message : null);
    if (search !== null) {
      const args = { query: search.trim().slice(0, 500) };
      await this.sessions.appendStep(tenantId, session.id, { kind: 'tool_call', tool: 'kb_search', args: maskPii(args) });
      const waiting = await this.sessions.setStatus(session.id, 'waiting_tool', { tool: 'kb_search', args });
      return { session: sessionView(waiting), type: 'tool_call', tool_call: { tool: 'kb_search', args, confirmation_required: false, is_be_tool: true, is_host_tool: false } };
    }
    await this.sessions.appendStep(tenantId, session.id, { kind: 'message', args: maskPii({ message }) });
    const request = Object.assign(new ChatRequestDto(), { question: message, filters: { project_keys: [session.project_key] } });
    const answer = await this.chat.answer(tenantId, null, request);
    if (answer.refusal_reason === 'blocked_by_guardrails') {
      await this.sessions.appendStep(tenantId, session.id, { kind: 'blocked', diagnostic: { reason: answer.refusal_reason } });
      const waiting = await this.sessions.setStatus(session.id, 'waiting_user', null);
      return { session: sessionView(waiting), type: 'blocked', reason: answer.answer };
    }
    await this.sessions.appendStep(tenantId, session.id, {
      kind: 'answer',
      args: maskPii({ answer: answer.answer }),
      diagnostic: { confidence: answer.confidence, refusal_reason: answer.refusal_reason, citations: answer.citations.map((c) => c.document_id), mode: caller.mode },
    });
    const waiting = await this.sessions.setStatus(session.id, 'waiting_user', null);
    return { session: sessionView(waiting), type: 'message', answer: answer.answer, citations: answer.citations, confidence: answer.confidence, meta: answer.meta };
  }

  /** Counts a step: per-session rate (the `widget-session` RateLimit policy), then the atomic open-and-under-the-cap update. */
  private async advance(caller: WidgetCaller, id: string, snapshot: object | null, res: HeaderSink): Promise<WidgetSessionRow> {
    await this.visible(caller, id);
    const retryAfter = await this.throttle.limit(res, { name: 'widget-session', quota: SESSION_STEPS_PER_MINUTE, windowSec: 60 }, [id]);
    if (retryAfter !== null) {
      throw new KbError(429, 'session_rate_limited', 'Too many steps in this session: slow down.', { retry_after: retryAfter });
    }
    const moved = await this.sessions.advance(caller.key.id, id, snapshot);
    if ('row' in moved) return moved.row;
    if (moved.refused === 'missing') throw notFound();
    if (moved.refused === 'closed') throw closed();
    throw new KbError(422, 'session_blocked', `This session reached its limit of ${MAX_SESSION_STEPS} steps.`);
  }

  /**
   * The session as this caller may see it: another key's session, one a session token was not
   * minted for, or one of another identity answers 404.
   */
  private async visible(caller: WidgetCaller, id: string): Promise<WidgetSessionRow> {
    const session = await this.sessions.findForKey(caller.key.id, id);
    if (!session) throw notFound();
    if (caller.boundSessionId !== null && caller.boundSessionId !== id) throw notFound();
    if (caller.identity !== null && session.identity !== null && session.identity !== caller.identity) throw notFound();
    return session;
  }
}

export function presentSteps(steps: Array<{ step_index: number; kind: string; tool: string | null; args_json: unknown; diagnostic_json: unknown; created_at: Date }>) {
  return steps.map((s) => ({ step_index: s.step_index, kind: s.kind, tool: s.tool, args_json: s.args_json, diagnostic_json: s.diagnostic_json, created_at: s.created_at }));
}

function checkSnapshot(snapshot: object): void {
  if (Buffer.byteLength(JSON.stringify(snapshot)) > MAX_SNAPSHOT_BYTES) {
    throw new KbError(422, 'snapshot_too_large', `The snapshot must not be larger than ${MAX_SNAPSHOT_BYTES / 1024} KiB.`);
  }
}
