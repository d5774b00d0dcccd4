import { Injectable } from '@nestjs/common';
import { ALL_SCOPES } from '@platform/contracts';
import { PasswordHasher, SecretHasher } from '@platform/crypto';
import type { JSONWebKeySet } from 'jose';
import { ClientsRepository } from './clients/clients.repository';
import { UsersRepository } from './users/users.repository';
import { IamConfig } from '../config/iam-config';

export const DEV_BOOTSTRAP_CLIENT = { id: 'platform-bootstrap', secret: 'dev-bootstrap-secret-change-me' };
export const DEV_BOOTSTRAP_USER = { email: 'admin@example.test', password: 'dev-admin-password-change-me' };

/** Demo and bootstrap clients and the bootstrap user (ARCHITECTURE.md "Bootstrap"); idempotent. */
@Injectable()
export class SeedService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly hasher: SecretHasher,
    private readonly config: IamConfig,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
  ) {}

  async seed(): Promise<string[]> {
    const production = this.config.production;
    const id = this.config.get('IAM_BOOTSTRAP_CLIENT_ID') ?? (production ? undefined : DEV_BOOTSTRAP_CLIENT.id);
    const secret = this.config.get('IAM_BOOTSTRAP_CLIENT_SECRET') ?? (production ? undefined : DEV_BOOTSTRAP_CLIENT.secret);
    if (!id || !secret) throw new Error('IAM_BOOTSTRAP_CLIENT_ID and IAM_BOOTSTRAP_CLIENT_SECRET are required in production');
    const done: string[] = [];
    await this.clients.upsert({
      clientId: id,
      name: 'Platform bootstrap client',
      isConfidential: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['client_credentials'],
      scopes: [...ALL_SCOPES],
      secretHash: this.hasher.hash(secret),
      firstParty: true,
    });
    done.push(id);
    const email = this.config.get('IAM_BOOTSTRAP_USER_EMAIL') ?? (production ? undefined : DEV_BOOTSTRAP_USER.email);
    const password = this.config.get('IAM_BOOTSTRAP_USER_PASSWORD') ?? (production ? undefined : DEV_BOOTSTRAP_USER.password);
    if (!email || !password) throw new Error('IAM_BOOTSTRAP_USER_EMAIL and IAM_BOOTSTRAP_USER_PASSWORD are required in production');
    // The password is (re)set on every seed, so changing the env changes the login.
    await this.users.upsertByEmail(email, 'Administrator', await this.passwords.hash(password));
    done.push(email);
    if (production) return done;

    await this.clients.upsert({
      clientId: 'demo-spa',
      name: 'Demo single-page app',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: ['http://127.0.0.1:5173/callback'],
      scopes: ['openid', 'profile', 'email', 'offline_access', 'kb:read', 'kb:chat'],
      firstParty: true,
    });
    done.push('demo-spa');
    const jwks = this.config.get('IAM_DEMO_PRIVATE_KEY_JWT_JWKS');
    if (jwks) {
      await this.clients.upsert({
        clientId: 'demo-service-pkjwt',
        name: 'Demo service using private_key_jwt',
        isConfidential: true,
        tokenEndpointAuthMethod: 'private_key_jwt',
        grantTypes: ['client_credentials'],
        scopes: ['evidence:review', 'guardrails:admin'],
        jwks: JSON.parse(jwks) as JSONWebKeySet,
        firstParty: true,
      });
      done.push('demo-service-pkjwt');
    }
    return done;
  }
}
