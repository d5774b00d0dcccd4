import { describeServiceBasics } from '@platform/testing';
import { iamUnderTest } from './iam-test-env';

describeServiceBasics(iamUnderTest);
