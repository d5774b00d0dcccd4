import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { IamEnv } from './config/env';
import { entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'iam',
      env: IamEnv,
      database: { defaultName: 'iam', entities, migrations },
    }),
  ],
})
export class AppModule {}
