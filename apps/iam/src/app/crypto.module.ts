import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EnvelopeCipher, parseKeyRing, SecretHasher } from '@platform/crypto';

/** iam's encryption and keyed hashing, built once from the validated key rings. */
@Global()
@Module({
  providers: [
    {
      provide: EnvelopeCipher,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => new EnvelopeCipher(parseKeyRing(config.getOrThrow('CRYPTO_KEYRING'))),
    },
    {
      provide: SecretHasher,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => new SecretHasher(parseKeyRing(config.getOrThrow('SECRET_PEPPERS'))),
    },
  ],
  exports: [EnvelopeCipher, SecretHasher],
})
export class IamCryptoModule {}
