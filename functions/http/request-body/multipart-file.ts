import Busboy from '@fastify/busboy';

/** Why a body held no part of that name: not multipart at all, more parts than a form may hold, or no such part. */
export type MultipartFileProblem = 'invalid_multipart' | 'too_many_parts' | 'missing';

/** Parts, fields and header lines one upload may hold: a node sends one file part. */
export const FORM_LIMITS = { parts: 16, fields: 16, files: 4, headerPairs: 32 } as const;

/**
 * The body is handed to the parser in slices of this size, so that parsing stops soon after a
 * limit is passed: fed whole, busboy went on skipping parts to the end (4 MiB of one-byte parts
 * is 30,000 of them, about 0.8 s of CPU).
 */
const SLICE_BYTES = 64 * 1024;

/**
 * The bytes of the file part `part` of a `multipart/form-data` body, read with @fastify/busboy
 * (a streaming parser that, unlike undici's `Response.formData`, takes a file whose bytes hold
 * the boundary string without the CRLF that would make it a delimiter, as RFC 2046 allows).
 * The part named `part` is read as bytes whatever its headers say: RFC 7578 makes a `filename`
 * a SHOULD, and a part without one (or without a Content-Type, as `curl -F "file=<r.wav"` sends
 * it) would otherwise be a text field, decoded and refused.
 * Bounded: the body is already within the upload limit, the file part is cut at `limitBytes`,
 * and a form past `FORM_LIMITS` is refused as soon as the parser sees it, the rest not parsed.
 */
export function readMultipartFile(
  body: Uint8Array,
  contentType: string,
  part: string,
  limitBytes: number,
): Promise<{ ok: true; file: Uint8Array } | { ok: false; problem: MultipartFileProblem }> {
  return new Promise((resolve) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: { 'content-type': contentType },
        limits: { ...FORM_LIMITS, fileSize: limitBytes },
        // busboy's own rule (a filename, or application/octet-stream), and our part always.
        isPartAFile: (name, type, filename) =>
          name === part || filename !== undefined || type === 'application/octet-stream',
      });
    } catch {
      // No boundary, or not multipart: the constructor says so.
      resolve({ ok: false, problem: 'invalid_multipart' });
      return;
    }
    const chunks: Buffer[] = [];
    let found = false;
    let stopped = false;
    const invalid = () => {
      stopped = true;
      resolve({ ok: false, problem: 'invalid_multipart' });
    };
    parser.on('file', (name, stream) => {
      // A part the body ends inside (no closing boundary) fails its own stream: without a
      // listener that is an uncaught 'error' event, which ends the process.
      stream.on('error', invalid);
      if (name !== part || found) {
        stream.resume();
        return;
      }
      found = true;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    });
    parser.on('error', invalid);
    const tooMany = () => {
      stopped = true;
      resolve({ ok: false, problem: 'too_many_parts' });
    };
    parser.on('partsLimit', tooMany);
    parser.on('filesLimit', tooMany);
    parser.on('fieldsLimit', tooMany);
    parser.on('finish', () => {
      if (found) resolve({ ok: true, file: new Uint8Array(Buffer.concat(chunks)) });
      else resolve({ ok: false, problem: 'missing' });
    });
    const form = withoutTransportPadding(body, contentType);
    // The parser emits its events as it is written to, so a limit stops the writing here.
    for (let at = 0; at < form.length && !stopped; at += SLICE_BYTES)
      parser.write(form.subarray(at, at + SLICE_BYTES));
    if (!stopped) parser.end();
  });
}

/** `boundary=` of a Content-Type, quoted or not (RFC 2045), as busboy reads the first one. */
const BOUNDARY_PARAMETER = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i;
const CRLF = Buffer.from('\r\n');
const SPACE = 0x20;
const TAB = 0x09;
const DASH = 0x2d;

/**
 * `body` without RFC 2046's transport padding: blanks a transport may add after a delimiter
 * (`--boundary  \r\n`), which a receiver "MUST be able to handle". busboy reads them as the part's
 * first header line and loses the part (the node's recording was "missing"). The blanks go only
 * where the boundary follows a CRLF (or opens the body) and a CRLF follows them: file bytes can
 * never hold that, so nothing else changes. At most as many delimiters as a form may hold parts
 * are looked at (busboy refuses the form past them), each found by one native search.
 */
function withoutTransportPadding(body: Uint8Array, contentType: string): Uint8Array {
  const match = BOUNDARY_PARAMETER.exec(contentType);
  const boundary = match?.[1]?.replace(/\\(.)/g, '$1') ?? match?.[2];
  if (boundary === undefined || boundary === '') return body;
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  const kept: Uint8Array[] = [];
  let from = 0;
  // The first delimiter may open the body, without the CRLF before it.
  let found = bytes.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2)) ? -2 : -1;
  if (found === -1) found = bytes.indexOf(delimiter);
  for (let seen = 0; found !== -1 && seen <= FORM_LIMITS.parts; seen += 1) {
    const after = found + delimiter.length;
    if (bytes[after] === DASH && bytes[after + 1] === DASH) break;
    let end = after;
    while (bytes[end] === SPACE || bytes[end] === TAB) end += 1;
    if (end > after && bytes[end] === CRLF[0] && bytes[end + 1] === CRLF[1]) {
      kept.push(bytes.subarray(from, after));
      from = end;
    }
    found = bytes.indexOf(delimiter, end);
  }
  if (kept.length === 0) return body;
  kept.push(bytes.subarray(from));
  return Buffer.concat(kept);
}
