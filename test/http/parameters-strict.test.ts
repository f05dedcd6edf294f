import { describeParameterContract } from './parameter-contract';

// PARAM_NORMALIZATION=strict: one stack per file (the handlers read the setting once per process).
describeParameterContract('strict');
