import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { listenOnFreePort } from './free-port';

/** A file the hub serves; an LFS file is redirected to the CDN with its digest, as the hub does. */
export interface HubServedFile {
  readonly body: Buffer;
  /** Default true: model files are LFS files. */
  readonly lfs?: boolean;
  /** What `X-Linked-Etag` claims; default the body's real SHA-256. */
  readonly publishedSha256?: string;
  /** Default true: the redirect carries `X-Linked-Size`. */
  readonly publishesSize?: boolean;
  /** The hub answers every request for the file with this status and no body (a 401, a 503). */
  readonly status?: number;
}

/** How the CDN misbehaves on its next answers, each taken once, in order. */
export type CdnMisbehaviour =
  /** Sends this many bytes of the answer, then drops the connection. */
  | { readonly kind: 'cut'; readonly afterBytes: number }
  /** Sends this many bytes, then nothing more (the socket stays open until the server closes). */
  | { readonly kind: 'stall'; readonly afterBytes: number }
  /** Answers a Range request with the whole file and a 200, as a server without ranges does. */
  | { readonly kind: 'ignore-range' }
  /** Answers a Range request with a 206 that starts at the first byte instead of the one asked. */
  | { readonly kind: 'range-from-start' }
  /** Sends the file and then these extra bytes, without a Content-Length. */
  | { readonly kind: 'extra-bytes'; readonly bytes: number }
  /** Sends the file in chunks with no length of any kind (no X-Linked-Size either). */
  | { readonly kind: 'no-length' };

export interface RecordedHubRequest {
  readonly method: string;
  readonly path: string;
  readonly range: string | undefined;
}

export interface ScriptedHubServer {
  /** Give it as HF_ENDPOINT. */
  readonly endpoint: string;
  readonly requests: readonly RecordedHubRequest[];
  /** Serves `body` at `/<repo>/resolve/main/<file>`. */
  serve(repo: string, file: string, served: HubServedFile): void;
  misbehave(...steps: CdnMisbehaviour[]): void;
  reset(): void;
  close(): Promise<void>;
}

/** A file that opens as GGUF does (its magic bytes); the rest is filler of the given size. */
export function ggufBytes(size: number, seed = 1): Buffer {
  const body = Buffer.alloc(size);
  body.write('GGUF', 0, 'latin1');
  for (let index = 4; index < size; index += 1) body[index] = (index * 31 + seed) % 251;
  return body;
}

export const sha256Of = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

/**
 * The Hugging Face hub's download shape on 127.0.0.1: `GET /<user>/<repo>/resolve/main/<file>`
 * answers an LFS file with a `302` to a CDN path carrying `X-Linked-Etag` (the SHA-256, quoted)
 * and `X-Linked-Size`; the CDN serves the bytes with `Range` support; a small non-LFS file is
 * served at once. There is no network here: the tests' downloads all come from this.
 */
export async function startScriptedHubServer(): Promise<ScriptedHubServer> {
  const files = new Map<string, HubServedFile>();
  const misbehaviours: CdnMisbehaviour[] = [];
  const requests: RecordedHubRequest[] = [];
  const stalled = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const path = decodeURI(new URL(request.url ?? '/', 'http://hub').pathname);
    requests.push({ method: request.method ?? '', path, range: request.headers.range });
    const resolveMatch = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(path);
    if (resolveMatch !== null) {
      const key = `${resolveMatch[1]}/${resolveMatch[2]}`;
      const served = files.get(key);
      if (served === undefined) {
        response.writeHead(404, { 'content-type': 'text/plain', 'x-error-code': 'EntryNotFound' });
        response.end('Entry not found');
        return;
      }
      if (served.status !== undefined) {
        response.writeHead(served.status).end();
        return;
      }
      if (served.lfs ?? true) {
        response.writeHead(302, {
          location: `http://${request.headers.host}/cdn/${encodeURI(key)}`,
          'x-linked-etag': `"${served.publishedSha256 ?? sha256Of(served.body)}"`,
          ...(served.publishesSize === false
            ? {}
            : { 'x-linked-size': String(served.body.length) }),
        });
        response.end();
        return;
      }
      sendBytes(served.body, request.headers.range, response, undefined);
      return;
    }
    const cdnMatch = /^\/cdn\/(.+)$/.exec(path);
    const served = cdnMatch === null ? undefined : files.get(cdnMatch[1] ?? '');
    if (served === undefined) {
      response.writeHead(404).end();
      return;
    }
    sendBytes(served.body, request.headers.range, response, misbehaviours.shift());
  });

  function sendBytes(
    body: Buffer,
    range: string | undefined,
    response: ServerResponse,
    misbehaviour: CdnMisbehaviour | undefined,
  ): void {
    const asked = /^bytes=(\d+)-$/.exec(range ?? '');
    let start = 0;
    if (asked !== null && misbehaviour?.kind === 'range-from-start') {
      response.writeHead(206, {
        'content-length': String(body.length),
        'content-range': `bytes 0-${body.length - 1}/${body.length}`,
      });
    } else if (asked !== null && misbehaviour?.kind !== 'ignore-range') {
      start = Number(asked[1]);
      if (start >= body.length) {
        response.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      response.writeHead(206, {
        'content-length': String(body.length - start),
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
      });
    } else if (misbehaviour?.kind === 'extra-bytes' || misbehaviour?.kind === 'no-length') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
    } else {
      response.writeHead(200, { 'content-length': String(body.length) });
    }
    const rest = body.subarray(start);
    if (misbehaviour?.kind === 'cut') {
      response.write(rest.subarray(0, misbehaviour.afterBytes), () => response.destroy());
      return;
    }
    if (misbehaviour?.kind === 'stall') {
      response.write(rest.subarray(0, misbehaviour.afterBytes));
      stalled.add(response);
      return;
    }
    if (misbehaviour?.kind === 'extra-bytes') {
      response.write(rest);
      response.end(Buffer.alloc(misbehaviour.bytes, 7));
      return;
    }
    // Several writes, so a download sees more than one chunk.
    const pieces = 4;
    const step = Math.ceil(rest.length / pieces) || 1;
    for (let offset = 0; offset < rest.length; offset += step) {
      response.write(rest.subarray(offset, offset + step));
    }
    response.end();
  }

  const port = await listenOnFreePort(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    serve(repo, file, served) {
      files.set(`${repo}/${file}`, served);
    },
    misbehave(...steps) {
      misbehaviours.push(...steps);
    },
    reset() {
      files.clear();
      misbehaviours.length = 0;
      requests.length = 0;
      for (const response of stalled) response.destroy();
      stalled.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of stalled) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
