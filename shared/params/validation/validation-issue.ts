import type { Repair } from '../normalization/repair';
import type { ParameterType } from '../types/parameter-type';

export type ValidationIssueCode =
  | 'unknown_tool'
  | 'unknown_parameter'
  | 'missing_parameter'
  | 'wrong_type'
  | 'invalid_format'
  | 'not_in_enum'
  /** An `entity_id` that is not in the device list the node reported (entities/). */
  | 'unknown_entity'
  | 'constraint'
  | 'arguments_not_object'
  /** Over ARGUMENT_LIMITS (size, nesting, array length); `received` describes, never holds, it. */
  | 'arguments_too_large'
  /** A number a double cannot hold exactly (`1e400`, an integer beyond 2^53): never rounded. */
  | 'number_not_exact';

/** One reason a tool call cannot go to the node, in terms both a model and a person can act on. */
export interface ValidationIssue {
  readonly code: ValidationIssueCode;
  readonly command: string;
  /** e.g. `resolved_datetimes` or `resolved_datetimes[1]`; null for the call as a whole. */
  readonly parameter: string | null;
  readonly expected: string;
  readonly received: unknown;
  readonly validValues: readonly string[] | null;
  readonly message: string;
  /** The declared type of the parameter, when known (drives the date hint of the retry message). */
  readonly parameterType?: ParameterType | null;
}

/** What a check knows of an issue; its message is written from these (see issue-messages.ts). */
export type IssueFacts = Omit<ValidationIssue, 'message' | 'parameterType'> & {
  readonly parameterType: ParameterType | null;
};

export type CallCheck =
  | {
      readonly ok: true;
      readonly arguments: Readonly<Record<string, unknown>>;
      readonly repairs: readonly Repair[];
    }
  | {
      readonly ok: false;
      readonly issues: readonly ValidationIssue[];
      readonly repairs: readonly Repair[];
    };
