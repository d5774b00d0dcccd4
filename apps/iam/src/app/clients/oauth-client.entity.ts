import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { JSONWebKeySet } from 'jose';

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** How the client came to exist: by an administrator, by RFC 7591 registration, or from its Client ID Metadata Document. */
export type RegistrationType = 'static' | 'dynamic' | 'metadata_document';

@Entity('oauth_clients')
export class OAuthClient {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ unique: true })
  clientId: string;

  @Column()
  name: string;

  @Column()
  isConfidential: boolean;

  @Column({ type: 'text' })
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;

  @Column({ type: 'text', array: true, default: '{}' })
  redirectUris: string[];

  @Column({ type: 'text', array: true, default: '{}' })
  grantTypes: string[];

  @Column({ type: 'text', array: true, default: '{}' })
  scopes: string[];

  @Column({ type: 'jsonb', nullable: true })
  jwks: JSONWebKeySet | null;

  @Column({ default: false })
  firstParty: boolean;

  /** Keyed hash of the current secret (never the secret). */
  @Column({ type: 'text', nullable: true })
  secretHash: string | null;

  /** The previous secret still validates until previousSecretGraceUntil. */
  @Column({ type: 'text', nullable: true })
  previousSecretHash: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretGraceUntil: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  secretExpiresAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  secretRotatedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** The application this client belongs to (manifest-managed clients). */
  @Column({ type: 'text', nullable: true })
  applicationKey: string | null;

  @Column({ default: false })
  autoRotate: boolean;

  @Column({ type: 'integer', nullable: true })
  rotateIntervalDays: number | null;

  /** A secret made by automatic rotation, encrypted, waiting for the client to fetch it once. */
  @Column({ type: 'text', nullable: true })
  secretPendingEncrypted: string | null;

  /** RFC 9126 §6: this client's authorization requests must arrive through the PAR endpoint. */
  @Column({ default: false })
  requirePushedAuthorizationRequests: boolean;

  /** RFC 9449 §5.2: this client's token requests must carry a DPoP proof (no plain bearer tokens). */
  @Column({ default: false })
  dpopBoundAccessTokens: boolean;

  @Column({ type: 'text', default: 'static' })
  registrationType: RegistrationType;

  /** Metadata-document clients: the row is the cached document, fetched again after this time. */
  @Column({ type: 'timestamptz', nullable: true })
  metadataExpiresAt: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
