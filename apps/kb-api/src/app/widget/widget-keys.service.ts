import { Injectable } from '@nestjs/common';
import { generateToken, SecretHasher } from '@platform/crypto';
import { containsPattern, Page, pageWindow, PageQueryDto, toPage } from '../admin/pagination';
import { KbError, KbValidationError } from '../errors/kb-errors';
import { CreateWidgetKeyDto, UpdateWidgetKeyDto } from './dto/widget-keys.dto';
import { DEFAULT_RATE_LIMIT, findSkill } from './widget-catalog';
import { KeyChanges, WidgetKeyRow, WidgetKeysRepository } from './widget-keys.repository';

/** A key as admins see it: never a secret or a hash, only whether an identity secret exists. */
export function presentKey(k: WidgetKeyRow) {
  return {
    id: Number(k.id),
    label: k.label,
    project_key: k.project_key,
    public_key: k.public_key,
    allowed_origins: k.allowed_origins,
    rate_limit: k.rate_limit,
    skill: k.skill,
    host_tools_enabled: k.host_tools_enabled,
    theme: k.theme,
    user_auth_enabled: k.user_auth_enabled,
    has_identity_secret: k.identity_secret_hash !== null,
    active: k.active,
    revoked_at: k.revoked_at,
    identity_credential_version: k.identity_credential_version,
    created_at: k.created_at,
    updated_at: k.updated_at,
  };
}
export type WidgetKeyView = ReturnType<typeof presentKey>;

const notFound = () => new KbError(404, 'not_found', 'Widget key not found.');
const conflict = () =>
  new KbError(409, 'identity_credential_conflict', 'The widget key changed since you read it: reload it and retry with its current identity_credential_version.');

/** Widget key administration in the active tenant; secrets are generated here and shown once. */
@Injectable()
export class WidgetKeysService {
  constructor(
    private readonly keys: WidgetKeysRepository,
    private readonly hasher: SecretHasher,
  ) {}

  async create(tenantId: string, userId: string | null, dto: CreateWidgetKeyDto) {
    await this.checkReferences(tenantId, dto.project_key, dto.skill);
    const publicKey = generateToken('pk', 128);
    const secret = generateToken('sk');
    const identitySecret = dto.user_auth_enabled ? generateToken('wis') : null;
    const row = await this.keys.insert(tenantId, {
      label: dto.label,
      project_key: dto.project_key,
      public_key: publicKey,
      secret_hash: this.hasher.hash(secret),
      identity_secret_hash: identitySecret ? this.hasher.hash(identitySecret) : null,
      allowed_origins: dto.allowed_origins ?? [],
      rate_limit: dto.rate_limit ?? DEFAULT_RATE_LIMIT,
      skill: dto.skill ?? null,
      host_tools_enabled: dto.host_tools_enabled ?? false,
      theme: { ...dto.theme },
      user_auth_enabled: dto.user_auth_enabled ?? false,
      created_by: userId,
    });
    return { data: presentKey(row), plain_secret: secret, public_key: publicKey, ...(identitySecret ? { identity_secret: identitySecret } : {}) };
  }

  async list(tenantId: string, q: PageQueryDto): Promise<Page<WidgetKeyView>> {
    const w = pageWindow(q);
    const { rows, total } = await this.keys.page(tenantId, containsPattern(q.search), w.perPage, w.offset);
    return toPage(rows.map(presentKey), total, w);
  }

  async show(tenantId: string, id: string): Promise<WidgetKeyView> {
    const row = await this.keys.find(tenantId, id);
    if (!row) throw notFound();
    return presentKey(row);
  }

  /** Compare-and-set on identity_credential_version; every accepted update moves it. */
  async update(tenantId: string, id: string, dto: UpdateWidgetKeyDto): Promise<WidgetKeyView> {
    const current = await this.keys.find(tenantId, id);
    if (!current) throw notFound();
    await this.checkReferences(tenantId, dto.project_key, dto.skill);
    if (dto.active === true && current.revoked_at) throw new KbValidationError({ active: ['A revoked widget key cannot be enabled again.'] });
    // Every field absent keeps its value; null never gets here (the body refuses it by name).
    const changes: KeyChanges = {};
    for (const f of ['label', 'project_key', 'allowed_origins', 'rate_limit', 'skill', 'host_tools_enabled', 'user_auth_enabled', 'active'] as const) {
      if (dto[f] !== undefined) changes[f] = dto[f];
    }
    if (dto.theme !== undefined) changes.theme = { ...dto.theme };
    const row = await this.keys.update(tenantId, id, changes, { expectedVersion: dto.identity_credential_version, bumpVersion: true });
    if (!row) throw (await this.keys.find(tenantId, id)) ? conflict() : notFound();
    return presentKey(row);
  }

  /** A new proxy secret; the old one stops working at once. */
  async rotate(tenantId: string, id: string) {
    const secret = generateToken('sk');
    const row = await this.keys.update(tenantId, id, { secret_hash: this.hasher.hash(secret) }, { bumpVersion: false });
    if (!row) throw notFound();
    return { data: presentKey(row), plain_secret: secret };
  }

  /** A new identity secret (compare-and-set like PATCH); user tokens of the old version stop working. */
  async rotateIdentitySecret(tenantId: string, id: string, expectedVersion: number) {
    const secret = generateToken('wis');
    const row = await this.keys.update(tenantId, id, { identity_secret_hash: this.hasher.hash(secret) }, { expectedVersion, bumpVersion: true });
    if (!row) throw (await this.keys.find(tenantId, id)) ? conflict() : notFound();
    return { data: presentKey(row), identity_secret: secret };
  }

  async revoke(tenantId: string, id: string): Promise<WidgetKeyView> {
    const row = await this.keys.revoke(tenantId, id);
    if (!row) throw notFound();
    return presentKey(row);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    if (!(await this.keys.delete(tenantId, id))) throw notFound();
  }

  private async checkReferences(tenantId: string, projectKey: string | undefined, skill: string | undefined): Promise<void> {
    const errors: Record<string, string[]> = {};
    if (projectKey !== undefined && !(await this.keys.projectExists(tenantId, projectKey))) errors['project_key'] = ['The selected project key is invalid.'];
    if (skill !== undefined && !findSkill(skill)) errors['skill'] = ['The selected skill is unknown.'];
    if (Object.keys(errors).length > 0) throw new KbValidationError(errors);
  }
}
