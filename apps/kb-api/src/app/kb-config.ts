import type { ConfigService } from '@nestjs/config';
import { KbConfig } from '../config/kb-config';

/**
 * The typed config over a ConfigService, kept only for retrieval's vector settings, which still
 * receive a ConfigService; everything else injects KbConfig (src/config/kb-config.ts).
 */
export const kbEnv = (config: ConfigService): KbConfig => KbConfig.of(config);
