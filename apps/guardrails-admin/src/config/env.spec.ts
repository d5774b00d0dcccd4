import { join } from 'node:path';
import { describeEnvExample } from '@platform/testing';
import { GuardrailsAdminEnv } from './env';

describeEnvExample(GuardrailsAdminEnv, join(__dirname, '../../.env.example'));
