import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { closedAfterEach } from '../../support/closed-after-each';
import { listenOnFreePort } from '../../support/free-port';

const REPOSITORY_ROOT = resolve(__dirname, '../../..');
const run = promisify(execFile);

const { servers } = closedAfterEach();
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(
    folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })),
  );
});

async function folder(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'jcc-provider-env-'));
  folders.push(made);
  return made;
}

async function listening(server: Server): Promise<number> {
  servers.push(server);
  return listenOnFreePort(server);
}

/**
 * What providerFetch answers for `url` in a new process with `env` (variables Node reads at
 * start-up): `status body`, or the failure's name and its cause's code.
 */
async function fetchInProcess(url: string, env: Record<string, string>): Promise<string> {
  const script = join(await folder(), 'fetch.ts');
  await writeFile(
    script,
    `import { providerFetch } from ${JSON.stringify(join(REPOSITORY_ROOT, 'shared/adapters/openai/provider-fetch.ts'))};
providerFetch(null)(${JSON.stringify(url)}, { method: 'POST', body: '{}' }).then(
  async (response) => console.log(response.status, await response.text()),
  (error) => console.log(error.name, error.cause?.code ?? error.message),
);`,
  );
  const { stdout } = await run(join(REPOSITORY_ROOT, 'node_modules/.bin/tsx'), [script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: REPOSITORY_ROOT,
  });
  return stdout.trim();
}

/** A certificate authority and a certificate it signed for `localhost`, made by openssl. */
async function authorityAndLocalhost(): Promise<{ ca: string; key: Buffer; cert: Buffer }> {
  const at = await folder();
  const path = (name: string) => join(at, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    path('ca.key'),
    '-out',
    path('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=Test CA',
  );
  openssl(
    'req',
    ...ec,
    '-keyout',
    path('leaf.key'),
    '-out',
    path('leaf.csr'),
    '-subj',
    '/CN=localhost',
  );
  await writeFile(path('ext'), 'subjectAltName=DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    path('leaf.csr'),
    '-CA',
    path('ca.pem'),
    '-CAkey',
    path('ca.key'),
    '-CAcreateserial',
    '-out',
    path('leaf.pem'),
    '-days',
    '1',
    '-extfile',
    path('ext'),
  );
  return {
    ca: path('ca.pem'),
    key: await readFile(path('leaf.key')),
    cert: await readFile(path('leaf.pem')),
  };
}

describe('providerFetch in the environment Node reads at start-up', () => {
  it('trusts NODE_EXTRA_CA_CERTS and names the host it connects to (SNI), as fetch does', async () => {
    // Prepare: a server for localhost whose certificate only the extra authority signed.
    const { ca, key, cert } = await authorityAndLocalhost();
    const named: (string | false | null)[] = [];
    const server = createHttpsServer({ key, cert }, (request, response) => {
      response.end('{"tls":true}');
      request.resume();
    });
    server.on('secureConnection', (socket) => named.push(socket.servername));
    const port = await listening(server);
    const url = `https://localhost:${port}/v1/x`;

    // Act
    const trusted = await fetchInProcess(url, { NODE_EXTRA_CA_CERTS: ca });
    const untrusted = await fetchInProcess(url, {});

    // Assess
    expect(trusted).toBe('200 {"tls":true}');
    expect(untrusted).toBe('TypeError UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(named[0]).toBe('localhost');
  }, 60_000);

  it('goes through HTTP_PROXY when NODE_USE_ENV_PROXY asks, as fetch does, and not otherwise', async () => {
    // Prepare: a proxy that answers every request itself, naming what it was asked for.
    const proxy = createServer((request, response) => {
      response.end(`{"proxied":${JSON.stringify(request.url)}}`);
      request.resume();
    });
    const port = await listening(proxy);
    const target = 'http://model.invalid/v1/x';
    const env = { HTTP_PROXY: `http://127.0.0.1:${port}` };

    // Act
    const asked = await fetchInProcess(target, { ...env, NODE_USE_ENV_PROXY: '1' });
    const notAsked = await fetchInProcess(target, env);

    // Assess
    expect(asked).toBe(`200 {"proxied":"${target}"}`);
    expect(notAsked).toBe('TypeError ENOTFOUND');
  }, 60_000);

  it('tunnels an https request through HTTPS_PROXY (CONNECT), the certificate checked end to end', async () => {
    // Prepare: the https server for localhost, and a proxy that tunnels to it.
    const { ca, key, cert } = await authorityAndLocalhost();
    const target = createHttpsServer({ key, cert }, (request, response) => {
      response.end('{"tunnelled":true}');
      request.resume();
    });
    const targetPort = await listening(target);
    const tunnels: string[] = [];
    const proxy = createServer();
    proxy.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(request.url ?? '');
      const upstream = connect(targetPort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    const proxyPort = await listening(proxy);

    // Act
    const answer = await fetchInProcess(`https://localhost:${targetPort}/v1/x`, {
      NODE_USE_ENV_PROXY: '1',
      HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`,
      NODE_EXTRA_CA_CERTS: ca,
    });

    // Assess
    expect(answer).toBe('200 {"tunnelled":true}');
    expect(tunnels).toEqual([`localhost:${targetPort}`]);
  }, 60_000);
});
