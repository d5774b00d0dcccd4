import { Injectable } from '@nestjs/common';
import { SecretHasher } from '@platform/crypto';
import { DomainError, ValidationFailedError } from '@platform/observability';
import { ClientsRepository } from '../clients/clients.repository';
import { SCOPE_CATALOG } from '../oauth/scopes';
import { ApplicationManifestDto } from './application-manifest.dto';
import { ApplicationsRepository, ManifestClientFields } from './applications.repository';
import { ClientSecretsService } from './client-secrets.service';

const APP_KEY = /^[a-z0-9][a-z0-9-]{1,62}$/;

/** Applies an application manifest: the application and its client (`cli_<key>`), created or updated. */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly store: ApplicationsRepository,
    private readonly clients: ClientsRepository,
    private readonly secrets: ClientSecretsService,
    private readonly hasher: SecretHasher,
  ) {}

  async apply(app: string, m: ApplicationManifestDto, actor: string) {
    if (!APP_KEY.test(app)) throw new DomainError('invalid_application_key', 422, `application key must match ${APP_KEY}`);
    const method = m.auth.token_endpoint_auth_method ?? (m.auth.client_type === 'public' ? 'none' : 'client_secret_basic');
    const errors = [
      ...(m.auth.client_type === 'public' && method !== 'none' ? [{ field: 'auth.token_endpoint_auth_method', message: 'a public client must use none' }] : []),
      ...(m.auth.client_type === 'confidential' && method === 'none' ? [{ field: 'auth.token_endpoint_auth_method', message: 'a confidential client cannot use none' }] : []),
      ...(method === 'private_key_jwt' && !m.auth.jwks?.keys?.length ? [{ field: 'auth.jwks', message: 'private_key_jwt needs a JWKS with at least one key' }] : []),
      ...(m.type !== 'service' && !m.auth.redirect_uris?.length ? [{ field: 'auth.redirect_uris', message: 'interactive applications need a redirect URI' }] : []),
      ...(m.auth.auto_rotate && (method === 'private_key_jwt' || m.auth.client_type === 'public') ? [{ field: 'auth.auto_rotate', message: 'only clients with a shared secret rotate' }] : []),
      ...(m.auth.auto_rotate && !m.auth.rotate_interval_days ? [{ field: 'auth.rotate_interval_days', message: 'required when auto_rotate is on' }] : []),
      ...m.scopes.filter((s) => !SCOPE_CATALOG.has(s)).map((s) => ({ field: 'scopes', message: `unknown scope ${s}` })),
    ];
    if (errors.length) throw new ValidationFailedError(errors);
    if (m.type === 'service' && m.auth.client_type === 'public') {
      throw new ValidationFailedError([{ field: 'auth.client_type', message: 'a service must be a confidential client' }]);
    }

    const applied = await this.store.transaction(async (tx) => {
      await tx.upsertApplication(app, m.name, m.type);
      const clientId = `cli_${app}`;
      const existing = await tx.findClient(clientId);
      const needsSecret = m.auth.client_type === 'confidential' && method !== 'private_key_jwt' && !existing?.secretHash;
      const secret = needsSecret ? this.secrets.newSecret() : undefined;
      const now = this.secrets.clock.now();
      const issued = secret ? { hash: this.hasher.hash(secret), at: now, expires: this.secrets.secretExpiry(now) } : null;
      const fields: ManifestClientFields = {
        name: m.name,
        is_confidential: m.auth.client_type === 'confidential',
        token_endpoint_auth_method: method,
        redirect_uris: m.auth.redirect_uris ?? [],
        grant_types: m.type === 'service' ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
        scopes: m.scopes,
        jwks: method === 'private_key_jwt' ? m.auth.jwks : null,
        auto_rotate: m.auth.auto_rotate ?? false,
        rotate_interval_days: m.auth.rotate_interval_days ?? null,
      };
      if (existing) await tx.updateClient(clientId, fields, issued);
      else await tx.insertClient(clientId, app, fields, issued);
      await tx.audit(this.secrets.clock.now(), actor, existing ? 'application.updated' : 'application.created', clientId, { secret_issued: !!secret });
      return { application_key: app, client_id: clientId, created: !existing, ...(secret ? { client_secret: secret } : {}) };
    });
    await this.clients.changed(applied.client_id);
    return applied;
  }
}
