import { Inject, Injectable } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { randomString } from '@platform/crypto';
import {
  AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type Redis from 'ioredis';
import { Clock } from '@platform/runtime';
import { LoginUser, UsersRepository } from '../../users/users.repository';
import { PasskeysRepository } from './passkeys.repository';
import { IamConfig } from '../../../config/iam-config';

const CEREMONY_TTL_SEC = 300;

/** A ceremony in flight: its challenge, kept server-side and usable once. */
interface Ceremony {
  challenge: string;
  purpose: 'register' | 'authenticate';
  userId?: string;
}

export interface PasskeySignIn {
  userId: string;
  /** RFC 8176: `hwk` for a device-bound key, `swk` for a synced one; `user` as the user was verified. */
  amr: string[];
}

/**
 * Passkeys (WebAuthn level 3 through @simplewebauthn/server): user verification is required in
 * both ceremonies, so a passkey sign-in is two factors (possession plus PIN or biometric) and
 * counts as aal2. Challenges live in Redis for five minutes and are taken once (GETDEL).
 */
@Injectable()
export class PasskeysService {
  constructor(
    private readonly passkeys: PasskeysRepository,
    private readonly users: UsersRepository,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    private readonly config: IamConfig,
    private readonly clock: Clock,
  ) {}

  private get origin(): string {
    return new URL(this.config.get('IAM_ISSUER')).origin;
  }

  private get rpId(): string {
    return this.config.get('IAM_WEBAUTHN_RP_ID') ?? new URL(this.config.get('IAM_ISSUER')).hostname;
  }

  private async remember(ceremony: Ceremony): Promise<string> {
    const handle = randomString(24);
    await this.redis.set(`webauthn:${handle}`, JSON.stringify(ceremony), 'EX', CEREMONY_TTL_SEC);
    return handle;
  }

  private async take(handle: string | undefined, purpose: Ceremony['purpose']): Promise<Ceremony | undefined> {
    if (!handle || !/^[A-Za-z0-9_-]{32}$/.test(handle)) return undefined;
    const raw = await this.redis.getdel(`webauthn:${handle}`);
    const ceremony = raw ? (JSON.parse(raw) as Ceremony) : undefined;
    return ceremony?.purpose === purpose ? ceremony : undefined;
  }

  async registrationOptions(user: LoginUser): Promise<{ handle: string; options: PublicKeyCredentialCreationOptionsJSON }> {
    const userHandle = await this.users.ensureWebauthnHandle(user.id, randomString(32));
    const existing = await this.passkeys.listFor(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.config.get('IAM_WEBAUTHN_RP_NAME'),
      rpID: this.rpId,
      userName: user.email,
      userDisplayName: user.name || user.email,
      userID: Buffer.from(userHandle, 'base64url'),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: CEREMONY_TTL_SEC * 1000,
    });
    const handle = await this.remember({ challenge: options.challenge, purpose: 'register', userId: user.id });
    return { handle, options };
  }

  async register(handle: string | undefined, user: LoginUser, response: RegistrationResponseJSON, name: string): Promise<boolean> {
    const ceremony = await this.take(handle, 'register');
    if (!ceremony || ceremony.userId !== user.id) return false;
    let result;
    try {
      result = await verifyRegistrationResponse({
        response,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: true,
      });
    } catch {
      return false;
    }
    if (!result.verified) return false;
    const info = result.registrationInfo;
    await this.passkeys.insert({
      credential_id: info.credential.id,
      user_id: user.id,
      public_key: Buffer.from(info.credential.publicKey),
      sign_count: String(info.credential.counter),
      transports: info.credential.transports ?? [],
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp,
      name: name.trim().slice(0, 60) || 'Passkey',
    });
    return true;
  }

  /** Options for a sign-in: discoverable (any passkey of this site) or, for a step-up, the user's own. */
  async authenticationOptions(userId?: string): Promise<{ handle: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const allow = userId ? (await this.passkeys.listFor(userId)).map((p) => ({ id: p.credential_id, transports: p.transports })) : undefined;
    const options = await generateAuthenticationOptions({ rpID: this.rpId, allowCredentials: allow, userVerification: 'required', timeout: CEREMONY_TTL_SEC * 1000 });
    const handle = await this.remember({ challenge: options.challenge, purpose: 'authenticate', userId });
    return { handle, options };
  }

  async authenticate(handle: string | undefined, response: AuthenticationResponseJSON): Promise<PasskeySignIn | undefined> {
    const ceremony = await this.take(handle, 'authenticate');
    if (!ceremony || typeof response?.id !== 'string') return undefined;
    const passkey = await this.passkeys.find(response.id);
    if (!passkey || (ceremony.userId && passkey.user_id !== ceremony.userId)) return undefined;
    let result;
    try {
      result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(passkey.public_key), counter: Number(passkey.sign_count), transports: passkey.transports },
        requireUserVerification: true,
      });
    } catch {
      return undefined;
    }
    if (!result.verified || !result.authenticationInfo.userVerified) return undefined;
    const info = result.authenticationInfo;
    await this.passkeys.recordUse(passkey.credential_id, info.newCounter, info.credentialBackedUp, this.clock.now());
    return { userId: passkey.user_id, amr: [info.credentialDeviceType === 'singleDevice' ? 'hwk' : 'swk', 'user'] };
  }
}
