import { useLocalStack } from '../support/local-stack-harness';
import { describeExchanges } from './exchange-scenarios';

describeExchanges(useLocalStack());
