import { Module } from '@nestjs/common';
import { JwksController } from './jwks.controller';
import { SigningKeysRepository } from './signing-keys.repository';
import { SigningKeysService } from './signing-keys.service';

@Module({
  controllers: [JwksController],
  providers: [SigningKeysService, SigningKeysRepository],
  exports: [SigningKeysService],
})
export class KeysModule {}
