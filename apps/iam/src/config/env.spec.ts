import { join } from 'node:path';
import { describeEnvExample } from '@platform/testing';
import { IamEnv } from './env';

describeEnvExample(IamEnv, join(__dirname, '../../.env.example'));
