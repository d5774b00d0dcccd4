import type { ConfigService } from '@nestjs/config';
import { KbConfig } from '../config/kb-config';

/**
 * The typed config over a ConfigService, for the callers that still hold one; inject KbConfig
 * (src/config/kb-config.ts) instead.
 */
export const kbEnv = (config: ConfigService): KbConfig => KbConfig.of(config);
