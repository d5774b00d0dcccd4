import { describeServiceBasics } from '@platform/testing';
import { evidenceUnderTest } from './evidence-test-env';

describeServiceBasics(evidenceUnderTest);
