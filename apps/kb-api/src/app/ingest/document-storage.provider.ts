import { ConfigService } from '@nestjs/config';
import path from 'node:path';
import { kbEnv } from '../kb-config';
import { LocalDocumentStorage } from './document-storage';

export const documentStorageProvider = {
  provide: LocalDocumentStorage,
  inject: [ConfigService],
  useFactory: (config: ConfigService) => new LocalDocumentStorage(path.resolve(kbEnv(config).get('KB_STORAGE_PATH'))),
};
