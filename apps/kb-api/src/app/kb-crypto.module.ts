import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EnvelopeCipher, parseKeyRing, PasswordHasher, SecretHasher } from '@platform/crypto';
import { kbEnv } from './kb-config';

/** Hashing and encryption at rest, from the key rings in the env. */
@Global()
@Module({
  providers: [
    { provide: SecretHasher, inject: [ConfigService], useFactory: (c: ConfigService) => new SecretHasher(parseKeyRing(kbEnv(c).get('SECRET_PEPPERS'))) },
    { provide: EnvelopeCipher, inject: [ConfigService], useFactory: (c: ConfigService) => new EnvelopeCipher(parseKeyRing(kbEnv(c).get('CRYPTO_KEYRING'))) },
    { provide: PasswordHasher, useFactory: () => new PasswordHasher() },
  ],
  exports: [SecretHasher, EnvelopeCipher, PasswordHasher],
})
export class KbCryptoModule {}
