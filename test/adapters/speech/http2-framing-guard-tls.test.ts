import { type ClientHttp2Session, connect, createSecureServer } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { framingGuardedHttp2 } from '../../../shared/adapters/speech/http2-framing-guard';
import { closedAfterEach } from '../../support/closed-after-each';
import { selfSignedLoopback } from '../../support/self-signed-loopback';

/**
 * The guard makes the TLS connection of Polly's and Transcribe's HTTP/2 sessions itself (their
 * endpoints are AWS's, https): it must be what http2.connect makes, ALPN h2 and the certificate
 * checked, or speech through AWS stops working.
 */

const { servers } = closedAfterEach();
let credentials: { key: Buffer; cert: Buffer };

beforeAll(async () => {
  credentials = await selfSignedLoopback();
});

/** GET / on a session made through the guard: the reply's status and body, or the error. */
async function get(url: string, ca?: Buffer): Promise<string> {
  const session: ClientHttp2Session = connect(url, {
    ...framingGuardedHttp2,
    ...(ca === undefined ? {} : { ca }),
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      session.once('error', reject);
      const stream = session.request({ ':path': '/' });
      stream.once('error', reject);
      let body = '';
      let status = 0;
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        body += chunk;
      });
      stream.on('end', () => resolve(`${status} ${body}`));
    });
  } catch (error) {
    return `error ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  } finally {
    session.destroy();
  }
}

describe('the HTTP/2 framing guard over TLS', () => {
  it('speaks HTTP/2 over TLS to a server whose certificate it trusts', async () => {
    // Prepare
    const server = createSecureServer(credentials, (_request, response) => response.end('audio'));
    servers.push(server as never);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    // Act
    const answer = await get(`https://127.0.0.1:${port}`, credentials.cert);

    // Assess
    expect(answer).toBe('200 audio');
  });

  it('checks the certificate: a self-signed one no authority signed is refused', async () => {
    // Prepare
    const server = createSecureServer(credentials, (_request, response) => response.end('audio'));
    servers.push(server as never);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    // Act
    const answer = await get(`https://127.0.0.1:${port}`);

    // Assess
    expect(answer).toBe('error DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('refuses a server that does not agree to HTTP/2', async () => {
    // Prepare: TLS, but HTTP/1.1 only.
    const server = createHttpsServer(credentials, (_request, response) => response.end('{}'));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    // Act
    const answer = await get(`https://127.0.0.1:${port}`, credentials.cert);

    // Assess: refused at the handshake (no protocol in common), or by the guard after it.
    expect(answer).toMatch(/^error (EPROTO|.*did not agree to HTTP\/2)/);
  });
});
