import {
  type CommandSetSource,
  clearCommandSetCache,
  compileCommandSet,
  type NormalizationPolicy,
} from '../../shared/params';

/**
 * One case of the hostile corpus of the parameter system (hostile-schema-cases.ts): a
 * registration, perhaps the model's call, and what must come of them.
 */
export interface HostileSchemaCase {
  readonly name: string;
  readonly source: CommandSetSource;
  /** The model's call, when the registration is accepted. */
  readonly call?: {
    readonly name: string;
    readonly arguments: unknown;
    readonly policy: NormalizationPolicy;
  };
  readonly expected: HostileOutcome;
}

/** Refused at start ([code, parameter, limit]), or the call's issues ([code, parameter]), or valid. */
export type HostileOutcome =
  | { readonly refused: readonly (readonly [string, string | null, string])[] }
  | { readonly issues: readonly (readonly [string, string | null])[] }
  | { readonly valid: true };

/** Compiles the case's registration cold (no cache) and checks its call; the outcome in short. */
export function runHostileSchemaCase(hostile: HostileSchemaCase): {
  readonly outcome: HostileOutcome;
  readonly messages: readonly string[];
} {
  clearCommandSetCache();
  const compiled = compileCommandSet(hostile.source);
  if (!compiled.ok) {
    return {
      outcome: {
        refused: compiled.issues.map((issue) => [
          issue.code,
          issue.parameter,
          limitNamed(issue.message),
        ]),
      },
      messages: compiled.issues.map((issue) => issue.message),
    };
  }
  if (hostile.call === undefined) return { outcome: { valid: true }, messages: [] };
  const check = compiled.value.check(hostile.call, hostile.call.policy);
  if (check.ok) return { outcome: { valid: true }, messages: [] };
  return {
    outcome: { issues: check.issues.map((issue) => [issue.code, issue.parameter]) },
    messages: check.issues.map((issue) => issue.message),
  };
}

function limitNamed(message: string): string {
  return /the limit (\w+)/.exec(message)?.[1] ?? message;
}
