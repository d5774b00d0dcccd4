import { describeServiceBasics } from '@platform/testing';
import { kbUnderTest } from './kb-test-env';

describeServiceBasics(kbUnderTest);
