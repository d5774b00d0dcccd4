import { describeServiceBasics } from '@platform/testing';
import { guardrailsAdminUnderTest } from './guardrails-test-env';

describeServiceBasics(guardrailsAdminUnderTest);
