import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { awsErrorInOpenAiShape } from '../../../shared/adapters/openai/aws-error-body';
import { providerFetch } from '../../../shared/adapters/openai/provider-fetch';
import { REPLY_BODY_LIMIT_BYTES } from '../../../shared/adapters/openai/reply-body-limit';
import { ERROR_REPLY_LIMIT_BYTES } from '../../../shared/adapters/system/body-reads';
import { closedAfterEach } from '../../support/closed-after-each';
import { listenOnFreePort } from '../../support/free-port';
import { releasable } from '../../support/speech-audio';

const KIB = 1024;
const { servers } = closedAfterEach();

/** A server answering 403 with the given pieces of a body, then nothing ever again. */
async function endlessErrorServer(pieces: readonly string[]) {
  const { promise: connectionClosed, release: closed } = releasable();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.socket?.once('close', closed);
      response.writeHead(403, {
        'x-amzn-errortype': 'AccessDeniedException:http://internal.amazon.com/coral/',
      });
      for (const piece of pieces) response.write(piece);
    });
  });
  servers.push(server);
  const port = await listenOnFreePort(server);
  return { url: `http://127.0.0.1:${port}/v1/chat/completions`, connectionClosed };
}

const awsError = (body: string) =>
  new Response(body, {
    status: 403,
    headers: { 'x-amzn-errortype': 'AccessDeniedException:http://internal.amazon.com/coral/' },
  });

describe('an AWS error body reshaped for the openai SDK', () => {
  it('becomes {"error": {message, type, code}} when it is AWS-shaped', async () => {
    const shaped = await awsErrorInOpenAiShape(awsError('{"Message":"no model access"}'));
    expect(shaped.status).toBe(403);
    expect(await shaped.json()).toEqual({
      error: {
        message: 'no model access',
        type: 'AccessDeniedException',
        code: 'AccessDeniedException',
      },
    });
  });

  it('keeps its status when over the error reply limit, its message the limit: never read on', async () => {
    // Prepare: an AWS-shaped body that never ends, as the model's transport hands it on.
    const server = await endlessErrorServer([
      `{"Message":"${'a'.repeat(10 * KIB)}`,
      'b'.repeat(10 * KIB),
    ]);
    const transport = providerFetch(REPLY_BODY_LIMIT_BYTES);

    // Act
    const shaped = await awsErrorInOpenAiShape(await transport(server.url, { method: 'POST' }));

    // Assess
    expect(shaped.status).toBe(403);
    expect(await shaped.json()).toEqual({
      error: {
        message: `the reply body is over ${ERROR_REPLY_LIMIT_BYTES} bytes and was not read further`,
      },
    });
    await server.connectionClosed;
  });

  it('passes on an error body that is not JSON as it came', async () => {
    const passed = await awsErrorInOpenAiShape(awsError('<html>Bad Gateway</html>'));
    expect(passed.status).toBe(403);
    expect(await passed.text()).toBe('<html>Bad Gateway</html>');
  });
});
