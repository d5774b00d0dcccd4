import { ConfigService } from '@nestjs/config';
import { KbApiEnv } from '../config/env';

/** Typed reads of kb-api's validated env (the config module holds the validated object). */
export const kbEnv = (config: ConfigService) => ({
  get: <K extends keyof KbApiEnv>(key: K) => config.get(key) as KbApiEnv[K],
});
