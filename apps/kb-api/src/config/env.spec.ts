import { join } from 'node:path';
import { describeEnvExample } from '@platform/testing';
import { KbApiEnv } from './env';

describeEnvExample(KbApiEnv, join(__dirname, '../../.env.example'));
