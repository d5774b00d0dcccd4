import { Injectable } from '@nestjs/common';
import { KbValidationError } from '../../errors/kb-errors';
import { SETTINGS_DEFAULTS, SettingsKind, SettingsMap } from './knowledge-settings';
import { SettingsRepository } from './settings.repository';
import type { EvidenceTiersDto } from './settings.dto';

export interface SettingsView<K extends SettingsKind> {
  data: SettingsMap[K];
  defaults: SettingsMap[K];
  /** Null while the tenant uses the defaults. */
  updated_at: Date | null;
}

/**
 * Per-tenant admin settings. A PUT replaces the stored value: keys it leaves out fall back to
 * their defaults, so what is read is always the defaults overlaid with the last PUT.
 */
@Injectable()
export class KnowledgeSettingsService {
  constructor(private readonly settings: SettingsRepository) {}

  async view<K extends SettingsKind>(tenantId: string, kind: K): Promise<SettingsView<K>> {
    const stored = await this.settings.get(tenantId, kind);
    return { data: overDefaults(kind, stored?.value), defaults: SETTINGS_DEFAULTS[kind], updated_at: stored?.updated_at ?? null };
  }

  async of<K extends SettingsKind>(tenantId: string, kind: K): Promise<SettingsMap[K]> {
    return (await this.view(tenantId, kind)).data;
  }

  async save<K extends SettingsKind>(tenantId: string, kind: K, value: object, userId: string | null): Promise<SettingsView<K>> {
    if (kind === 'evidence_tiers') checkTiers(value as EvidenceTiersDto);
    // Only the keys given are stored (class-validator leaves absent ones undefined).
    const given = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
    if (kind === 'autowiki' && Array.isArray(given['exclude_terms'])) given['exclude_terms'] = [...new Set(given['exclude_terms'] as string[])];
    const stored = await this.settings.put(tenantId, kind, given, userId);
    return { data: overDefaults(kind, stored.value), defaults: SETTINGS_DEFAULTS[kind], updated_at: stored.updated_at };
  }
}

/**
 * The stored keys over the defaults. A null stored before PUT bodies refused null (evidence tiers of null broke every
 * document list) reads as the default: a value written by an earlier release must not take reads down.
 */
function overDefaults<K extends SettingsKind>(kind: K, stored: object | undefined): SettingsMap[K] {
  const given = Object.entries(stored ?? {}).filter(([, v]) => v !== null && v !== undefined);
  return { ...SETTINGS_DEFAULTS[kind], ...Object.fromEntries(given) } as SettingsMap[K];
}

/** Each tier names exactly one of source_type and path_prefix, and no two tiers name the same one. */
function checkTiers(body: EvidenceTiersDto): void {
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  (body.tiers ?? []).forEach((t, i) => {
    if ((t.source_type === undefined) === (t.path_prefix === undefined)) {
      (errors[`tiers.${i}.path_prefix`] ??= []).push('Each tier must name exactly one of source_type and path_prefix.');
      return;
    }
    const key = t.source_type !== undefined ? `type:${t.source_type}` : `path:${t.path_prefix!.replace(/\/+$/, '')}`;
    if (seen.has(key)) (errors[`tiers.${i}.${t.source_type !== undefined ? 'source_type' : 'path_prefix'}`] ??= []).push('Another tier already names this.');
    seen.add(key);
  });
  if (Object.keys(errors).length) throw new KbValidationError(errors);
}
