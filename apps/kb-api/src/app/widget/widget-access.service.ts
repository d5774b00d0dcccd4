import { Injectable } from '@nestjs/common';
import { KbError } from '../errors/kb-errors';
import { SessionTokenDto, UserTokenDto } from './dto/widget-public.dto';
import { DEFAULT_SKILL, DEFAULT_THEME, findSkill, normalizeOrigin } from './widget-catalog';
import type { WidgetCaller } from './widget-key.guard';
import { WidgetKeysRepository } from './widget-keys.repository';
import { WidgetSessionsRepository } from './widget-sessions.repository';
import { WidgetTokensService } from './widget-tokens.service';

const DEFAULT_LOCALE = 'en';

/** What a widget learns at boot and the tokens it can ask for. */
@Injectable()
export class WidgetAccessService {
  constructor(
    private readonly keys: WidgetKeysRepository,
    private readonly sessions: WidgetSessionsRepository,
    private readonly tokens: WidgetTokensService,
  ) {}

  /** The key's configuration; the project comes from the key, never from the caller. */
  async setup(caller: WidgetCaller, requestedSkill: string | undefined) {
    const { key } = caller;
    const skillRef = key.skill ?? DEFAULT_SKILL;
    if (requestedSkill !== undefined) {
      if (!findSkill(requestedSkill)) throw new KbError(404, 'skill_not_found', `Unknown skill ${requestedSkill}.`);
      if (requestedSkill !== skillRef) throw new KbError(403, 'skill_not_allowed', `This widget key runs ${skillRef}, not ${requestedSkill}.`);
    }
    const skill = findSkill(skillRef)!;
    return {
      skill: { name: skill.name, version: skill.version, ref: skillRef, description: skill.description },
      project: { key: key.project_key, name: (await this.keys.projectName(key.tenant_id, key.project_key)) ?? key.project_key },
      tools_enabled: [...skill.backendTools, ...(key.host_tools_enabled ? skill.hostTools : [])],
      auto_annotation_rules: [],
      default_policies: { confirm_host_tools: true, pii_masking: true, max_steps: 100, snapshot_max_bytes: 256 * 1024 },
      default_locale: caller.locale ?? DEFAULT_LOCALE,
      user_auth_enabled: key.user_auth_enabled,
      theme: { ...DEFAULT_THEME, ...key.theme },
    };
  }

  /**
   * A single-use session token bound to the caller's origin. Minted for a session, it inherits the
   * session's identity (so sessions/current finds it again); otherwise it carries the caller's
   * identity or a fresh pseudonymous one.
   */
  async sessionToken(caller: WidgetCaller, dto: SessionTokenDto) {
    let identity = caller.identity;
    if (caller.boundSessionId !== null && dto.session_id !== caller.boundSessionId) {
      // A token minted for one session can only renew access to that session.
      throw new KbError(404, 'not_found', 'Widget session not found.');
    }
    if (dto.session_id !== undefined) {
      const session = await this.sessions.findForKey(caller.key.id, dto.session_id);
      if (!session || (caller.identity !== null && session.identity !== null && session.identity !== caller.identity)) {
        throw new KbError(404, 'not_found', 'Widget session not found.');
      }
      identity = session.identity ?? identity;
    }
    return this.tokens.mint(caller.key, 'session', {
      identity: identity ?? this.tokens.anonymousIdentity(caller.key.id),
      origin: caller.origin,
      sessionId: dto.session_id ?? null,
      locale: caller.locale,
    });
  }

  /** For the host's signed-in user (the host's server holds the identity secret): origin-bound, identity from the subject. */
  async userToken(caller: WidgetCaller, dto: UserTokenDto) {
    const origin = normalizeOrigin(new URL(dto.origin).origin);
    if (!caller.key.allowed_origins.includes(origin)) throw new KbError(403, 'origin_not_allowed', 'This origin may not use this widget key.');
    const locale = dto.locale ?? DEFAULT_LOCALE;
    const minted = await this.tokens.mint(caller.key, 'user', { identity: this.tokens.identityOf(caller.key.id, `user:${dto.subject}`), origin, locale });
    return { ...minted, locale };
  }
}
