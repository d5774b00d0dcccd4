import { Global, Module } from '@nestjs/common';
import { EnvelopeCipher, parseKeyRing, SecretHasher } from '@platform/crypto';
import { IamConfig } from '../config/iam-config';

/** iam's encryption and keyed hashing, built once from the validated key rings. */
@Global()
@Module({
  providers: [
    {
      provide: EnvelopeCipher,
      inject: [IamConfig],
      useFactory: (config: IamConfig) => new EnvelopeCipher(parseKeyRing(config.get('CRYPTO_KEYRING'))),
    },
    {
      provide: SecretHasher,
      inject: [IamConfig],
      useFactory: (config: IamConfig) => new SecretHasher(parseKeyRing(config.get('SECRET_PEPPERS'))),
    },
  ],
  exports: [EnvelopeCipher, SecretHasher],
})
export class IamCryptoModule {}
