import { hash, verify, Algorithm } from '@node-rs/argon2';

export interface PasswordHashOptions {
  memoryCost?: number;
  timeCost?: number;
  parallelism?: number;
}

/** argon2id for human-chosen passwords (OWASP's first choice). Parameters live in the hash. */
export class PasswordHasher {
  private readonly options: Required<PasswordHashOptions>;

  constructor(options: PasswordHashOptions = {}) {
    this.options = { memoryCost: 19456, timeCost: 2, parallelism: 1, ...options };
  }

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: Algorithm.Argon2id, ...this.options });
  }

  async verify(password: string, stored: string): Promise<boolean> {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  }
}
