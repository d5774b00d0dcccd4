import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SecretHasher } from '@platform/crypto';
import { DomainError, ValidationFailedError } from '@platform/observability';
import { DataSource } from 'typeorm';
import { ClientsRepository } from '../clients/clients.repository';
import { SCOPE_CATALOG } from '../oauth/scopes';
import { ApplicationManifestDto } from './application-manifest.dto';
import { ClientSecretsService } from './client-secrets.service';

const APP_KEY = /^[a-z0-9][a-z0-9-]{1,62}$/;

/** Applies an application manifest: the application and its client (`cli_<key>`), created or updated. */
@Injectable()
export class ApplicationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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

    const applied = await this.dataSource.transaction(async (em) => {
      await em.query(
        `INSERT INTO iam_applications (key, name, type) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name, type = EXCLUDED.type, updated_at = now()`,
        [app, m.name, m.type],
      );
      const clientId = `cli_${app}`;
      const existing = await this.clients.findByClientId(clientId, em);
      const needsSecret = m.auth.client_type === 'confidential' && method !== 'private_key_jwt' && !existing?.secretHash;
      const secret = needsSecret ? this.secrets.newSecret() : undefined;
      const now = this.secrets.clock.now();
      const issued = secret ? { hash: this.hasher.hash(secret), at: now, expires: this.secrets.secretExpiry(now) } : null;
      const fields = {
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
      if (existing) {
        await em.query(
          `UPDATE oauth_clients SET name = $2, is_confidential = $3, token_endpoint_auth_method = $4, redirect_uris = $5,
             grant_types = $6, scopes = $7, jwks = $8, auto_rotate = $9, rotate_interval_days = $10,
             secret_hash = COALESCE($11, CASE WHEN $3 AND $4 <> 'private_key_jwt' THEN secret_hash END),
             secret_rotated_at = COALESCE($12, secret_rotated_at), secret_expires_at = CASE WHEN $11::text IS NULL THEN secret_expires_at ELSE $13 END,
             updated_at = now()
           WHERE client_id = $1`,
          [clientId, ...Object.values(fields), issued?.hash ?? null, issued?.at ?? null, issued?.expires ?? null],
        );
      } else {
        await em.query(
          `INSERT INTO oauth_clients (client_id, application_key, name, is_confidential, token_endpoint_auth_method, redirect_uris,
             grant_types, scopes, jwks, auto_rotate, rotate_interval_days, secret_hash, secret_rotated_at, secret_expires_at, first_party)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, true)`,
          [clientId, app, ...Object.values(fields), issued?.hash ?? null, issued?.at ?? null, issued?.expires ?? null],
        );
      }
      await this.secrets.audit(em, actor, existing ? 'application.updated' : 'application.created', clientId, { secret_issued: !!secret });
      return { application_key: app, client_id: clientId, created: !existing, ...(secret ? { client_secret: secret } : {}) };
    });
    await this.clients.changed(applied.client_id);
    return applied;
  }
}
