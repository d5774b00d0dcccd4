import { join } from 'node:path';
import { describeEnvExample } from '@platform/testing';
import { EvidenceReviewEnv } from './env';

describeEnvExample(EvidenceReviewEnv, join(__dirname, '../../.env.example'));
