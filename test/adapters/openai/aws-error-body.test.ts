import { describe, expect, it } from 'vitest';
import { awsErrorInOpenAiShape } from '../../../shared/adapters/openai/aws-error-body';
import {
  boundedFetch,
  REPLY_BODY_LIMIT_BYTES,
} from '../../../shared/adapters/openai/bounded-fetch';
import { ERROR_REPLY_LIMIT_BYTES } from '../../../shared/adapters/system/body-reads';

const KIB = 1024;

/** A chunked body: the given chunks, then nothing ever again. */
function endlessBody(chunks: readonly string[]) {
  let next = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next];
      next += 1;
      if (chunk !== undefined) controller.enqueue(new TextEncoder().encode(chunk));
      else return new Promise(() => {});
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, wasCancelled: () => cancelled };
}

const awsError = (body: ReadableStream<Uint8Array> | string) =>
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
    // Prepare: an AWS-shaped body that never ends, as boundedFetch hands it on.
    const body = endlessBody([`{"Message":"${'a'.repeat(10 * KIB)}`, 'b'.repeat(10 * KIB)]);
    const bounded = boundedFetch(REPLY_BODY_LIMIT_BYTES, async () => awsError(body.stream));

    // Act
    const shaped = await awsErrorInOpenAiShape(await bounded('http://bedrock.test/'));

    // Assess
    expect(shaped.status).toBe(403);
    expect(await shaped.json()).toEqual({
      error: {
        message: `the reply body is over ${ERROR_REPLY_LIMIT_BYTES} bytes and was not read further`,
      },
    });
    expect(body.wasCancelled()).toBe(true);
  });

  it('passes on an error body that is not JSON as it came', async () => {
    const passed = await awsErrorInOpenAiShape(awsError('<html>Bad Gateway</html>'));
    expect(passed.status).toBe(403);
    expect(await passed.text()).toBe('<html>Bad Gateway</html>');
  });
});
