import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnFreePort } from './free-port';
import { type LatencyOptions, LocalModelSimulator } from './scripted-llm/local-model-simulator';
import { findProtocolIssues } from './scripted-llm/protocol-checks';
import {
  completionBody,
  errorBody,
  type IdCounters,
  modelsBody,
} from './scripted-llm/response-bodies';
import type {
  ChatRequestBody,
  FixedStep,
  ProtocolViolation,
  RecordedRequest,
  ScriptedLlmServer,
  ScriptStep,
  UnexpectedRequest,
} from './scripted-llm/script-types';
import { streamBody } from './scripted-llm/streamed-body';
import { type ExpectedSigner, signatureProblem } from './sigv4-verifier';

export type * from './scripted-llm/local-model-simulator';
export type * from './scripted-llm/script-types';

export interface ScriptedLlmServerOptions {
  /** Reply steps take the time a local model would (queue, prompt, generation); off by default. */
  readonly latency?: LatencyOptions;
  /**
   * Stands in for Bedrock: every request must carry this SigV4 signature, checked with another
   * implementation than the signer's (sigv4-verifier.ts); one that does not is answered 403, as
   * AWS does, and its problem recorded in `signatureFailures`.
   */
  readonly sigV4?: ExpectedSigner;
}

export interface StartedScriptedLlmServer extends ScriptedLlmServer {
  /** The simulated local model when the server was started with `latency`, else null. */
  readonly latency: LocalModelSimulator | null;
  /** With `sigV4`: why each refused request's signature failed (cleared by `reset`). */
  readonly signatureFailures: readonly string[];
}

const chatPaths = new Set(['/v1/chat/completions', '/chat/completions']);
const modelPaths = new Set(['/v1/models', '/models']);

/** How deep a step computed from the request may compute another before it is a test bug. */
const maxComputedSteps = 10;

/**
 * An OpenAI-compatible Chat Completions server on 127.0.0.1 (a free port) that answers from a
 * script, records every request, and refuses with a 400, as the real API does, histories and
 * tool declarations the real API refuses. Close it after the tests. With `latency`, reply steps are
 * answered when a single-slot local model would have answered them (see LocalModelSimulator).
 */
export async function startScriptedLlmServer(
  options: ScriptedLlmServerOptions = {},
): Promise<StartedScriptedLlmServer> {
  const queue: ScriptStep[] = [];
  const requests: RecordedRequest[] = [];
  const protocolViolations: ProtocolViolation[] = [];
  const unexpectedRequests: UnexpectedRequest[] = [];
  const counters: IdCounters = { completions: 0, toolCalls: 0 };
  const hangs = new Set<NodeJS.Timeout>();
  const latency = options.latency === undefined ? null : new LocalModelSimulator(options.latency);
  const signatureFailures: string[] = [];

  const answerChat = (request: RecordedRequest, invalidJson: boolean, response: ServerResponse) => {
    const issues = invalidJson
      ? [{ rule: 'invalid_json', message: 'The request body is not valid JSON', param: 'body' }]
      : findProtocolIssues(request.body);
    const first = issues[0];
    if (first !== undefined) {
      protocolViolations.push(...issues.map(({ rule, message }) => ({ request, rule, message })));
      sendJson(
        response,
        400,
        errorBody(400, first.message, { param: first.param, code: first.rule }),
      );
      return;
    }
    const step = queue.shift();
    if (step === undefined) {
      unexpectedRequests.push({ request, error: 'script exhausted' });
      const body = errorBody(500, 'script exhausted: no reply was queued for this request');
      sendJson(response, 500, body, { 'x-should-retry': 'false' });
      return;
    }
    play(resolveStep(step, request), request, response);
  };

  const play = (step: FixedStep, request: RecordedRequest, response: ServerResponse) => {
    if ('heldUntil' in step && step.heldUntil !== undefined) {
      const { heldUntil, ...released } = step;
      heldUntil.then(() => {
        if (!response.destroyed) play(released, request, response);
      });
    } else if ('hangMs' in step) {
      const timer = setTimeout(() => response.destroy(), step.hangMs);
      hangs.add(timer);
      response.on('close', () => {
        clearTimeout(timer);
        hangs.delete(timer);
      });
    } else if ('streamedBody' in step) {
      streamBody(step, response);
    } else if ('rawBody' in step) {
      response.writeHead(step.status ?? 200, {
        'content-type': step.contentType ?? 'application/json',
      });
      response.end(step.rawBody);
    } else if ('reply' in step) {
      const timed = latency?.admit(request, step);
      const body = completionBody(timed?.step ?? step, request, counters, timed?.usage);
      const delayMs = (step.delayMs ?? 0) + (timed?.realDelayMs ?? 0);
      if (timed !== undefined) {
        response.on('close', () => latency?.settle(timed.served, response.writableFinished));
      }
      if (step.delayMs === undefined && timed === undefined) {
        sendJson(response, 200, body);
        return;
      }
      const timer = setTimeout(() => sendJson(response, 200, body), delayMs);
      hangs.add(timer);
      response.on('close', () => {
        clearTimeout(timer);
        hangs.delete(timer);
      });
    } else {
      const body =
        step.body === undefined
          ? errorBody(step.status, `scripted status ${step.status}`)
          : step.body;
      sendJson(response, step.status, body, step.headers);
    }
  };

  const server = createServer((incoming, response) => {
    readRequest(incoming)
      .then(({ request, invalidJson, text }) => {
        requests.push(request);
        const problem =
          options.sigV4 === undefined
            ? null
            : signatureProblem(
                {
                  method: request.method,
                  url: incoming.url ?? '/',
                  headers: request.headers,
                  body: text,
                },
                options.sigV4,
              );
        if (problem !== null) {
          signatureFailures.push(problem);
          const refusal = { message: `The request signature is not valid: ${problem}` };
          sendJson(response, 403, refusal, { 'x-amzn-errortype': 'InvalidSignatureException' });
        } else if (request.method === 'POST' && chatPaths.has(request.path)) {
          answerChat(request, invalidJson, response);
        } else if (request.method === 'GET' && modelPaths.has(request.path)) {
          sendJson(response, 200, modelsBody());
        } else {
          const message = `Unknown request URL: ${request.method} ${request.path}.`;
          sendJson(response, 404, errorBody(404, message, { code: 'unknown_url' }));
        }
      })
      .catch((error: unknown) => {
        // A step function that threw: a bug in the test, reported to it as a 500 it can see.
        sendJson(response, 500, errorBody(500, `scripted server failed: ${String(error)}`), {
          'x-should-retry': 'false',
        });
      });
  });
  const port = await listenOnFreePort(server);

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    latency,
    signatureFailures,
    requests,
    protocolViolations,
    unexpectedRequests,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      protocolViolations.length = 0;
      unexpectedRequests.length = 0;
      signatureFailures.length = 0;
      counters.completions = 0;
      counters.toolCalls = 0;
      latency?.forget();
    },
    close: async () => {
      for (const timer of hangs) {
        clearTimeout(timer);
      }
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

function resolveStep(step: ScriptStep, request: RecordedRequest): FixedStep {
  let resolved = step;
  for (let depth = 0; typeof resolved === 'function'; depth += 1) {
    if (depth >= maxComputedSteps) {
      throw new Error(`a computed step kept computing steps ${maxComputedSteps} levels deep`);
    }
    resolved = resolved(request);
  }
  return resolved;
}

async function readRequest(
  incoming: IncomingMessage,
): Promise<{ request: RecordedRequest; invalidJson: boolean; text: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) {
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: ChatRequestBody | null = null;
  let invalidJson = false;
  if (text !== '') {
    try {
      body = JSON.parse(text) as ChatRequestBody;
    } catch {
      invalidJson = true;
    }
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  const path = new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname;
  return {
    request: { method: incoming.method ?? 'GET', path, headers, body, bodyLength: text.length },
    invalidJson,
    text,
  };
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': `req_scripted_${Date.now()}`,
    ...headers,
  });
  response.end(JSON.stringify(body));
}
