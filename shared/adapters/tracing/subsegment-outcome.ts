/**
 * How a failed call shows in X-Ray. X-Ray's own meaning of the flags: `error` for a 4xx (the
 * request was refused: a `ConditionalCheckFailedException` is a 400, normal control flow in the
 * request locks, the rate counter and the store), `throttle` for a 429 or a throttling error
 * (with `error`), `fault` for a 5xx or a call that got no answer at all.
 */
export type SubsegmentOutcome =
  | { readonly fault: true }
  | { readonly error: true }
  | { readonly error: true; readonly throttle: true };

export const faultOutcome: SubsegmentOutcome = { fault: true };
export const errorOutcome: SubsegmentOutcome = { error: true };
export const throttleOutcome: SubsegmentOutcome = { error: true, throttle: true };

/** AWS error codes that mean throttling, whatever their status (DynamoDB answers them with 400). */
const throttlingCodes = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);

/** The flags for an HTTP status; a fault without one (no answer). */
export function outcomeOfStatus(status: number | undefined): SubsegmentOutcome {
  if (status === 429) return throttleOutcome;
  if (status !== undefined && status >= 400 && status < 500) return errorOutcome;
  return faultOutcome;
}

/** The flags for what an AWS SDK v3 call threw: its name and `$metadata.httpStatusCode`. */
export function outcomeOfAwsError(error: unknown): SubsegmentOutcome {
  if (!(error instanceof Error)) return faultOutcome;
  if (throttlingCodes.has(error.name)) return throttleOutcome;
  const metadata: unknown = '$metadata' in error ? error.$metadata : undefined;
  const status =
    typeof metadata === 'object' && metadata !== null && 'httpStatusCode' in metadata
      ? metadata.httpStatusCode
      : undefined;
  return outcomeOfStatus(typeof status === 'number' ? status : undefined);
}
