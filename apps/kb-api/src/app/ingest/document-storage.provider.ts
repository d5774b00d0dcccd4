import { ConfigService } from '@nestjs/config';
import path from 'node:path';
import { kbEnv } from '../kb-config';
import { DocumentStorage, LocalDocumentStorage } from './document-storage';

export const documentStorageProvider = {
  provide: DocumentStorage,
  inject: [ConfigService],
  useFactory: (config: ConfigService): DocumentStorage => new LocalDocumentStorage(path.resolve(kbEnv(config).get('KB_STORAGE_PATH'))),
};
