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
    // The parser emits its events as it is written to, so a limit stops the writing here.
    for (let at = 0; at < body.length && !stopped; at += SLICE_BYTES)
      parser.write(body.subarray(at, at + SLICE_BYTES));
    if (!stopped) parser.end();
  });
}
