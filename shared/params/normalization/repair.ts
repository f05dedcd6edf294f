/**
 * How far normalization repairs arguments (llm-failure-modes.md, "Argument shape"): `strict` only
 * drops JSON nulls, `lossless` only what cannot change meaning, `lenient` adds heuristics.
 */
export type NormalizationPolicy = 'strict' | 'lossless' | 'lenient';

/** The repair rules, each a small named step of the pipeline (see repair-parameter.ts). */
export const RepairRule = {
  /** An optional parameter or nested property sent as JSON null is left out (every policy). */
  dropNull: 'drop_null',
  /** An optional parameter sent as "null", "None", "none", "default" or "" is left out (not strict). */
  dropPlaceholder: 'drop_placeholder',
  /** A JSON-encoded list or object in a string, where a list or object is declared (any depth). */
  parseJsonString: 'parse_json_string',
  /** "5" or "5.0" for an int. */
  parseIntegerString: 'parse_integer_string',
  /** "2.5" or "2" for a float. */
  parseNumberString: 'parse_number_string',
  /** "true" / "False" (any case) for a bool. */
  parseBooleanString: 'parse_boolean_string',
  /** Surrounding blanks removed from a date. */
  canonicalizeDate: 'canonicalize_date',
  /** `t`/`z` upper-cased, a space for `T`, seconds added to `HH:MM`, `+0100` as `+01:00`. */
  canonicalizeDateTime: 'canonicalize_datetime',
  /** A zero added to a one-digit hour, `z` upper-cased, `+0100` as `+01:00`. */
  canonicalizeTime: 'canonicalize_time',
  /** Duration designators upper-cased (`pt90m` -> `PT90M`). */
  canonicalizeDuration: 'canonicalize_duration',
  /** "SUBTRACT" for an enum of add/subtract: the one declared value equal ignoring case and blanks. */
  matchEnumIgnoringCase: 'match_enum_ignoring_case',
  /** One valid item for an array parameter becomes a list of one. */
  wrapSingleValue: 'wrap_single_value',
  /** lenient: yes/no, on/off, 1/0 for a bool. */
  booleanFromWord: 'boolean_from_word',
  /** lenient: a number or boolean for a string parameter. */
  stringifyScalar: 'stringify_scalar',
  /** lenient: "Option A: First choice" into a shape's pair of required string properties. */
  splitLabelDescription: 'split_label_description',
  /** lenient: "label=A,description=First" into properties of those declared names. */
  splitKeyValuePairs: 'split_key_value_pairs',
  /** lenient: the declared default for a missing optional parameter. */
  fillDefault: 'fill_default',
} as const;
export type RepairRule = (typeof RepairRule)[keyof typeof RepairRule];

/** One change normalization made to a call, recorded for the log, the metrics and the response. */
export interface Repair {
  readonly command: string;
  /** The parameter, or a part of it: `resolved_datetimes[0]`, `options[1].label`. */
  readonly parameter: string;
  readonly rule: string;
  readonly before: unknown;
  /** undefined when the rule left the parameter out. */
  readonly after: unknown;
}
