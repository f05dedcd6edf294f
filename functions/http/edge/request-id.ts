import { ID_PATTERN, LIMITS } from '../contract/request-schemas';
import { HttpError } from '../errors/http-error';

/** The header alternative to a body `request_id` (the IETF httpapi Idempotency-Key draft's name). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const PRINTABLE_ID = new RegExp(ID_PATTERN);

/**
 * The request id of a voice request: the body's `request_id` or the `Idempotency-Key` header
 * (headers already lower-cased by the normalizer; the header quoted or not, `headerKey`). Both may
 * be sent, but then they must agree;
 * the header obeys the same rule as the body field (printable ASCII, at most 128 characters).
 */
export function requestIdOf(
  body: { readonly request_id?: string | null },
  headers: Readonly<Record<string, string | undefined>>,
): string | null {
  const fromBody = body.request_id ?? null;
  const sent = headers[IDEMPOTENCY_KEY_HEADER]?.trim() ?? null;
  if (sent === null) return fromBody;
  const fromHeader = headerKey(sent);
  if (
    fromHeader === null ||
    fromHeader.length > LIMITS.idCharacters ||
    !PRINTABLE_ID.test(fromHeader)
  ) {
    throw new HttpError(
      400,
      'invalid_request',
      `The Idempotency-Key header must be 1 to ${LIMITS.idCharacters} printable ASCII characters without spaces.`,
    );
  }
  if (fromBody !== null && fromBody !== fromHeader) {
    throw new HttpError(
      400,
      'invalid_request',
      'request_id and the Idempotency-Key header differ; send one of them, or the same value in both.',
    );
  }
  return fromHeader;
}

/** A Structured Fields string (RFC 8941): quoted, `\"` and `\\` its only escapes. */
const SF_STRING = /^"((?:[^"\\]|\\["\\])*)"$/;

/**
 * The key a header carries: as the Idempotency-Key draft writes it, a Structured Fields string
 * (`"8e03978e-40d5"`, the key the text inside the quotes), or a bare token as most APIs take it
 * (`8e03978e-40d5`). Null for a quoted string left open or badly escaped.
 */
function headerKey(value: string): string | null {
  if (!value.startsWith('"')) return value;
  const quoted = SF_STRING.exec(value)?.[1];
  return quoted === undefined ? null : quoted.replace(/\\(["\\])/g, '$1');
}
