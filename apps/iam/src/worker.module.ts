import { Module } from '@nestjs/common';
import { QueueModule } from '@platform/queue';
import { PlatformModule } from '@platform/runtime';
import { IamEnv } from './config/env';
import { entities } from './data-source';
import { migrations } from './migrations';

/** The BullMQ worker process: the same feature modules as the API plus their processors. */
@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'iam-worker',
      env: IamEnv,
      http: false,
      database: { defaultName: 'iam', entities, migrations },
    }),
    QueueModule.forRoot('iam'),
  ],
})
export class WorkerModule {}
