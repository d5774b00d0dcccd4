import { Global, Module } from '@nestjs/common';
import { EnvelopeCipher, parseKeyRing, PasswordHasher, SecretHasher } from '@platform/crypto';
import { KbConfig } from '../config/kb-config';

/** Hashing and encryption at rest, from the key rings in the env. */
@Global()
@Module({
  providers: [
    { provide: SecretHasher, inject: [KbConfig], useFactory: (c: KbConfig) => new SecretHasher(parseKeyRing(c.get('SECRET_PEPPERS'))) },
    { provide: EnvelopeCipher, inject: [KbConfig], useFactory: (c: KbConfig) => new EnvelopeCipher(parseKeyRing(c.get('CRYPTO_KEYRING'))) },
    { provide: PasswordHasher, useFactory: () => new PasswordHasher() },
  ],
  exports: [SecretHasher, EnvelopeCipher, PasswordHasher],
})
export class KbCryptoModule {}
