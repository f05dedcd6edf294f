import type { ErrorResponse } from '../contract/response-schemas';

/** An error the edge itself raises (bad body, bad key...), already carrying its status and code. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: readonly unknown[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The JSON body of every error the API answers (api.md, ErrorResponse). */
export const errorBody = (
  code: string,
  message: string,
  details: readonly unknown[] = [],
): ErrorResponse => ({ error: { code, message, details } });

export interface MappedError {
  readonly statusCode: number;
  readonly body: ErrorResponse;
  /** Headers the status calls for, e.g. `Retry-After` on a 409. */
  readonly headers?: Readonly<Record<string, string>>;
}
