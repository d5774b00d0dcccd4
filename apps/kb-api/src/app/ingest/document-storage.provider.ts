import path from 'node:path';
import type { KbApiEnv } from '../../config/env';
import { KbConfig } from '../../config/kb-config';
import { DocumentStorage, LocalDocumentStorage } from './document-storage';
import { S3DocumentStorage } from './s3-document-storage';

const STORAGE_SETTINGS = [
  'KB_STORAGE_DRIVER',
  'KB_STORAGE_PATH',
  'KB_S3_ENDPOINT',
  'KB_S3_REGION',
  'KB_S3_BUCKET',
  'KB_S3_PREFIX',
  'KB_S3_ACCESS_KEY_ID',
  'KB_S3_SECRET_ACCESS_KEY',
  'KB_S3_SESSION_TOKEN',
  'KB_S3_FORCE_PATH_STYLE',
  'KB_S3_TIMEOUT_MS',
] as const;

export type StorageSettings = Pick<KbApiEnv, (typeof STORAGE_SETTINGS)[number]>;

/** The storage settings out of kb-api's config (the API, the worker and CLI tasks build the same driver). */
export const storageSettings = (config: KbConfig): StorageSettings => config.pick(STORAGE_SETTINGS);

/**
 * The driver the env selects (KB_STORAGE_DRIVER). The env was validated at boot, so an s3 driver
 * always has its bucket and credentials here. Also for processes outside Nest (CLI tasks).
 */
export function createDocumentStorage(env: StorageSettings): DocumentStorage {
  if (env.KB_STORAGE_DRIVER !== 's3')
    return new LocalDocumentStorage(path.resolve(env.KB_STORAGE_PATH));
  return new S3DocumentStorage({
    endpoint: env.KB_S3_ENDPOINT ?? `https://s3.${env.KB_S3_REGION}.amazonaws.com`,
    region: env.KB_S3_REGION,
    bucket: env.KB_S3_BUCKET!,
    prefix: env.KB_S3_PREFIX,
    forcePathStyle: env.KB_S3_FORCE_PATH_STYLE,
    credentials: {
      accessKeyId: env.KB_S3_ACCESS_KEY_ID!,
      secretAccessKey: env.KB_S3_SECRET_ACCESS_KEY!,
      sessionToken: env.KB_S3_SESSION_TOKEN,
    },
    timeoutMs: env.KB_S3_TIMEOUT_MS,
  });
}

export const documentStorageProvider = {
  provide: DocumentStorage,
  inject: [KbConfig],
  useFactory: (config: KbConfig): DocumentStorage => createDocumentStorage(storageSettings(config)),
};
