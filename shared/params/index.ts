export { canonicalJson, commandSetHash, hashCanonicalJson } from './command-set/canonical-json';
export type {
  CommandExample,
  CommandSetIssue,
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
export type { CompiledCommandSet } from './command-set/compiled-command-set';
export { checkEntityArgument } from './entities/check-entity-argument';
export { type KnownEntities, knownEntities } from './entities/known-entities';
export {
  issueWithoutUnlistedEntityIds,
  repairWithoutUnlistedEntityIds,
  UNLISTED_ENTITY,
  withoutUnlistedEntityIds,
} from './entities/unlisted-entity-redaction';
export { isIsoDate, isIsoDateTime, isIsoDuration, isIsoTime } from './formats/iso-formats';
export { argumentsTextTooLargeIssue } from './limits/argument-limits';
export { withinCharacters } from './limits/character-count';
export { TURN_LIMITS } from './limits/limits';
export { isPlaceholder } from './normalization/placeholder';
export type { NormalizationPolicy, Repair } from './normalization/repair';
export { omitStrictNulls } from './strict/omit-strict-nulls';
export { strictTools } from './strict/strict-tools';
export {
  exactNumber,
  firstInexactNumber,
  parseJsonExact,
  type RawJsonNumber,
} from './types/exact-numbers';
export { isJsonObject, type JsonObject } from './types/json-value';
export {
  formatParameterType,
  isTemporalType,
  type ParameterType,
  parseParameterType,
  type ScalarType,
} from './types/parameter-type';
export { typeSchema } from './types/type-schema';
export { argumentsNotObjectIssue } from './validation/make-issue';
export { buildRetryMessage } from './validation/retry-message';
export type { CallCheck, ValidationIssue } from './validation/validation-issue';
