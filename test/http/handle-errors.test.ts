import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handleErrors } from '../../functions/http/errors/handle-errors';
import { HttpError } from '../../functions/http/errors/http-error';
import {
  ModelFailedError,
  ModelNotConfiguredError,
  TurnTimeoutError,
} from '../../shared/conversation';
import { StorageUnavailableError } from '../../shared/ports';
import { SpeechProviderError } from '../../shared/ports/speech';
import { captureProcessOutput } from '../support/local-stack-harness';

interface LogLine {
  readonly level: string;
  readonly message: string;
  readonly status: number;
  readonly code: string;
  readonly reason?: string;
  readonly error?: { stack?: string };
}

/** Runs the edge's error handler on `error` with a real Logger; returns its one log line. */
function logLineFor(error: unknown, context: object = {}): LogLine {
  return handled(error, context).line;
}

/** The handler's one log line for `error`, and the metrics of the request. */
function handled(error: unknown, context: object): { line: LogLine; metrics: Metrics } {
  const output = captureProcessOutput(false);
  const metrics = new Metrics({ namespace: 'Test', serviceName: 'test' });
  try {
    const logger = new Logger({ serviceName: 'test' });
    const request = {
      event: {} as APIGatewayProxyEvent,
      context: context as Context,
      response: undefined,
      error,
      internal: {},
    } as unknown as Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;
    handleErrors(logger, () => metrics).onError?.(request);
  } finally {
    output.restore();
  }
  const lines = output.lines.join('').trim().split('\n');
  expect(lines).toHaveLength(1);
  return { line: JSON.parse(lines[0] ?? '') as LogLine, metrics };
}

describe('handleErrors: the level of a failed request’s log line says who must act', () => {
  it.each([
    ['no model configured', new ModelNotConfiguredError(), 503, 'no language model'],
    [
      'the store unavailable',
      new StorageUnavailableError('the store did not answer', { cause: new Error('ECONNRESET') }),
      503,
      'StorageUnavailableError: the store did not answer <- Error: ECONNRESET',
    ],
    [
      'the model failing',
      new ModelFailedError('HTTP 500', 3, { cause: new Error('upstream 500') }),
      502,
      '<- Error: upstream 500',
    ],
    ['the deadline', new TurnTimeoutError(25_000, 2), 504, 'within 25000 ms'],
  ])(
    '%s: an expected %s is a WARN with its reason and no stack',
    (_case, error, status, reason) => {
      // Act
      const line = logLineFor(error);

      // Assess
      expect(line).toMatchObject({ level: 'WARN', message: 'request failed', status });
      expect(line.reason).toContain(reason);
      expect(JSON.stringify(line)).not.toContain('    at ');
    },
  );

  it('a bug (an error the table does not know) is an ERROR 500 with its stack', () => {
    // Act
    const line = logLineFor(new TypeError('cannot read x of undefined'));

    // Assess
    expect(line).toMatchObject({ level: 'ERROR', message: 'request failed', status: 500 });
    expect(line.error?.stack).toContain('    at ');
  });

  it('a refusal (4xx) is a WARN without the error', () => {
    // Act
    const line = logLineFor(new HttpError(400, 'invalid_request', 'no'));

    // Assess
    expect(line).toMatchObject({ level: 'WARN', message: 'request rejected', status: 400 });
    expect(line.error).toBeUndefined();
  });
});

describe('handleErrors: a request whose client left', () => {
  it('is no provider failure: an info line, and no count of the provider failure code', () => {
    // Prepare: the provider call the client's leaving stopped.
    const gone = new AbortController();
    gone.abort();
    const stopped = new SpeechProviderError('credentials_rejected', 'speech_to_text', 'aborted');

    // Act
    const left = handled(stopped, { clientGone: gone.signal });
    const stayed = handled(stopped, { clientGone: new AbortController().signal });

    // Assess
    expect(left.line).toMatchObject({
      level: 'INFO',
      status: 502,
      code: 'speech_credentials_rejected',
    });
    expect(JSON.stringify(left.metrics.serializeMetrics())).not.toContain(
      '"speech_provider_failed"',
    );
    expect(stayed.line.level).toBe('WARN');
    expect(JSON.stringify(stayed.metrics.serializeMetrics())).toContain(
      '"speech_credentials_rejected"',
    );
  });
});
