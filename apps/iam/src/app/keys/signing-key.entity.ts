import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JWK } from 'jose';

export type SigningKeyState = 'next' | 'active' | 'retiring' | 'retired';

/**
 * A signing key's life: `next` (published, not signing yet, so verifiers' JWKS caches learn it
 * first) → `active` (signs) → `retiring` (published until the last token it signed expires) →
 * `retired` (unpublished). The private key is envelope-encrypted at rest.
 */
@Entity('iam_signing_keys')
export class SigningKey {
  @PrimaryColumn()
  kid: string;

  @Column({ type: 'text' })
  state: SigningKeyState;

  @Column({ type: 'jsonb' })
  publicJwk: JWK;

  @Column({ type: 'text' })
  privateKeyEncrypted: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  publishedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  activatedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  retiringAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  retireAfter: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  retiredAt: Date | null;
}
