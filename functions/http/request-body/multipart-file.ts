import Busboy from '@fastify/busboy';

/** Why a body held no file part of that name: not multipart at all, or no such file. */
export type MultipartFileProblem = 'invalid_multipart' | 'missing' | 'not_a_file';

/** Parts, fields and header lines one upload may hold: a node sends one file part. */
const FORM_LIMITS = { parts: 16, fields: 16, files: 4, headerPairs: 32 } as const;

/**
 * The bytes of the file part `part` of a `multipart/form-data` body, read with @fastify/busboy
 * (a streaming parser that, unlike undici's `Response.formData`, takes a file whose bytes hold
 * the boundary string without the CRLF that would make it a delimiter, as RFC 2046 allows).
 * Bounded: the body is already within the upload limit, the file part is cut at `limitBytes`,
 * and at most `FORM_LIMITS` parts are looked at.
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
      });
    } catch {
      // No boundary, or not multipart: the constructor says so.
      resolve({ ok: false, problem: 'invalid_multipart' });
      return;
    }
    const chunks: Buffer[] = [];
    let found: 'file' | 'field' | null = null;
    parser.on('file', (name, stream) => {
      if (name !== part || found === 'file') {
        stream.resume();
        return;
      }
      found = 'file';
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    });
    parser.on('field', (name) => {
      if (name === part && found === null) found = 'field';
    });
    parser.on('error', () => resolve({ ok: false, problem: 'invalid_multipart' }));
    parser.on('finish', () => {
      if (found === 'file') resolve({ ok: true, file: new Uint8Array(Buffer.concat(chunks)) });
      else resolve({ ok: false, problem: found === 'field' ? 'not_a_file' : 'missing' });
    });
    parser.end(body);
  });
}
