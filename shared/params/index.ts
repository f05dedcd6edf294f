export { canonicalJson, commandSetHash, hashCanonicalJson } from './command-set/canonical-json';
export type {
  Antipattern,
  CommandExample,
  CommandSetIssue,
  CommandSetIssueCode,
  CommandSetSource,
  CommandSpec,
  CompileOptions,
  ParameterSpec,
} from './command-set/command-spec';
export {
  clearCommandSetCache,
  compileCommandSet,
  compileKnownCommandSet,
} from './command-set/compile-command-set';
export type {
  CompiledCommandSet,
  NormalizedCall,
  ToolCallArguments,
} from './command-set/compiled-command-set';
export { isIsoDate, isIsoDateTime, isIsoDuration, isIsoTime } from './formats/iso-formats';
export { isPlaceholder } from './normalization/placeholder';
export { type NormalizationPolicy, type Repair, RepairRule } from './normalization/repair';
export { omitStrictNulls } from './strict/omit-strict-nulls';
export { type StrictTool, strictTools } from './strict/strict-tools';
export { isJsonObject, type JsonObject } from './types/json-value';
export {
  formatParameterType,
  isTemporalType,
  type ParameterType,
  parseParameterType,
  type ScalarType,
} from './types/parameter-type';
export { typeSchema } from './types/type-schema';
export { describeType } from './validation/describe-expected';
export { argumentsNotObjectIssue } from './validation/make-issue';
export { buildRetryMessage } from './validation/retry-message';
export type {
  CallCheck,
  ValidationIssue,
  ValidationIssueCode,
} from './validation/validation-issue';
