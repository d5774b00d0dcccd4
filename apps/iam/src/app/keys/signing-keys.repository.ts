import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { SigningKey } from './signing-key.entity';

/** Serialises key creation and rotation across replicas ('iamk'). */
const ROTATION_LOCK = 0x69616d6b;

/** The key store inside one rotation: every read and write of the step, under the rotation lock. */
export class SigningKeysInRotation {
  private readonly repo: Repository<SigningKey>;

  constructor(em: EntityManager) {
    this.repo = em.getRepository(SigningKey);
  }

  inState(state: 'active' | 'next'): Promise<SigningKey | null> {
    return this.repo.findOneBy({ state });
  }

  retiring(): Promise<SigningKey[]> {
    return this.repo.find({ where: { state: 'retiring' } });
  }

  async retire(kids: string[], now: Date): Promise<void> {
    if (kids.length) await this.repo.update({ kid: In(kids) }, { state: 'retired', retiredAt: now });
  }

  /** The active key starts retiring: published until `retireAfter`, when its last token has expired. */
  async startRetiring(kid: string, now: Date, retireAfter: Date): Promise<void> {
    await this.repo.update({ kid }, { state: 'retiring', retiringAt: now, retireAfter });
  }

  async activate(kid: string, now: Date): Promise<void> {
    await this.repo.update({ kid }, { state: 'active', activatedAt: now });
  }

  insert(key: SigningKey): Promise<SigningKey> {
    return this.repo.save(this.repo.create(key));
  }
}

/** The only access to iam_signing_keys. */
@Injectable()
export class SigningKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findActive(): Promise<SigningKey | null> {
    return this.dataSource.getRepository(SigningKey).findOneBy({ state: 'active' });
  }

  /** Every next, active and retiring key, oldest first: what verifiers must be able to use. */
  findPublished(): Promise<SigningKey[]> {
    return this.dataSource.getRepository(SigningKey).find({ where: { state: In(['next', 'active', 'retiring']) }, order: { createdAt: 'ASC' } });
  }

  /** Runs one rotation step in a transaction holding the rotation lock, so replicas, the CLI and the worker take turns. */
  inRotation<T>(step: (keys: SigningKeysInRotation) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [ROTATION_LOCK]);
      return step(new SigningKeysInRotation(em));
    });
  }
}
