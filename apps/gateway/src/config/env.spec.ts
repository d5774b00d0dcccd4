import { join } from 'node:path';
import { describeEnvExample } from '@platform/testing';
import { GatewayEnv } from './env';

describeEnvExample(GatewayEnv, join(__dirname, '../../.env.example'));
