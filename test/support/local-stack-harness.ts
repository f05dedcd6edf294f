import { format } from 'node:util';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack';
import { type ApiClient, createApiClient } from './api-client';
import { type StartedScriptedLlmServer, startScriptedLlmServer } from './scripted-llm-server';
import { TEST_AWS_CREDENTIALS } from './sigv4-verifier';
import { STACK_VARIABLES } from './stack-variables';

/** A node the stack registers at start: `X-API-Key: <nodeId>:<key>`. */
export interface TestNode {
  readonly nodeId: string;
  readonly key: string;
}

/** Long and distinctive keys, so that a leak into a log line cannot go unnoticed. */
export const NODE_A: TestNode = { nodeId: 'node-a', key: 'nodekey-alpha-6c1f0e9d2b7a4c35' };
export const NODE_B: TestNode = { nodeId: 'node-b', key: 'nodekey-bravo-93a5e1c7d0f24b68' };
export const OPENAI_TEST_KEY = 'sk-test-openai-5e2d8b0c4a9f17e3';
export const NODE_TIMEZONE = 'America/New_York';

export const apiKeyOf = (node: TestNode): string => `${node.nodeId}:${node.key}`;

/**
 * A copy of `env` without any variable the stack reads: the start of a hermetic environment.
 * The embedded recognizer is off (STT_MODEL=none): its default model is a download.
 */
export function withoutStackVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of STACK_VARIABLES) delete copy[name];
  copy.STT_MODEL = 'none';
  return copy;
}

export interface LocalStackOptions {
  /**
   * False starts the stack with no OPENAI_* variables and LLM_MODEL=none (the 503 case). Default
   * true.
   */
  readonly languageModel?: boolean;
  /** Extra variables, e.g. `TURN_DEADLINE_MS`. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * `bedrock`: the scripted model stands in for Bedrock's endpoint (MODEL_PROVIDER=bedrock): it
   * refuses any request not signed with SigV4 for `bedrock-mantle` in BEDROCK_TEST_REGION with the
   * static test credentials, which the stack finds in the environment as in Lambda. Default `openai`.
   */
  readonly provider?: 'openai' | 'bedrock';
}

export const BEDROCK_TEST_REGION = 'eu-west-1';
export const BEDROCK_TEST_MODEL = 'openai.gpt-oss-20b';

/** The variables through which the AWS credential chain finds the test credentials, as in Lambda. */
const AWS_CREDENTIAL_VARIABLES = {
  AWS_ACCESS_KEY_ID: TEST_AWS_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: TEST_AWS_CREDENTIALS.secretAccessKey,
  AWS_SESSION_TOKEN: TEST_AWS_CREDENTIALS.sessionToken,
} as const;

export interface LocalStackHarness {
  readonly stack: LocalStack;
  /** The scripted model; reset after every test. Throws in a stack started without one. */
  readonly llm: StartedScriptedLlmServer;
  /**
   * Everything the process wrote while the stack ran (Powertools logs, metrics, console, the
   * local server's request lines), kept out of the test report; `JCC_TEST_LOGS=1` prints it too.
   */
  readonly output: readonly string[];
  /** A client of the local API sending `node`'s key (node-a unless told). */
  client(node?: TestNode): ApiClient;
}

/** The environment of a stack under test; `baseURL` null means no model configured. */
function stackEnvironment(
  baseURL: string | null,
  extra: Readonly<Record<string, string>> = {},
  provider: 'openai' | 'bedrock' = 'openai',
): Record<string, string> {
  // No server and LLM_MODEL=none: npm start would otherwise run (and fetch) its embedded model.
  const model =
    baseURL === null
      ? { LLM_MODEL: 'none' }
      : provider === 'bedrock'
        ? {
            MODEL_PROVIDER: 'bedrock',
            BEDROCK_BASE_URL: baseURL,
            BEDROCK_REGION: BEDROCK_TEST_REGION,
            LLM_MODEL: BEDROCK_TEST_MODEL,
            ...AWS_CREDENTIAL_VARIABLES,
          }
        : { OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: OPENAI_TEST_KEY, LLM_MODEL: 'scripted' };
  return {
    PORT: '0',
    DYNAMODB_PORT: '0',
    DATA_DIR: 'memory',
    LOCAL_NODE_API_KEY: [NODE_A, NODE_B].map(apiKeyOf).join(','),
    LOCAL_NODE_TIMEZONE: NODE_TIMEZONE,
    // A test file sends many requests from one node; the per-node limit has its own tests.
    NODE_RATE_LIMIT: '0',
    // A warm-up would take the first scripted reply; test/http/warm-up.test.ts turns it on.
    WARMUP_TIMEOUT_MS: '0',
    // No embedded recognizer (its default model is a download); npm-start-hears.test.ts has one.
    STT_MODEL: 'none',
    ...model,
    ...extra,
  };
}

/**
 * Starts, before the tests of the calling file, the local API exactly as `npm start` runs it
 * (embedded dynalite in memory, the real handler exports) against a scripted OpenAI-compatible
 * server, and stops both after them. The handlers wire themselves from process.env once per
 * process, so a file starts one stack.
 */
export function useLocalStack(options: LocalStackOptions = {}): LocalStackHarness {
  let stack: LocalStack | undefined;
  let llm: StartedScriptedLlmServer | undefined;
  let output: CapturedOutput | undefined;
  const variables = [...STACK_VARIABLES, ...Object.keys(AWS_CREDENTIAL_VARIABLES)];
  const saved = new Map(variables.map((name) => [name, process.env[name]]));
  const bedrock = options.provider === 'bedrock';
  beforeAll(async () => {
    output = captureProcessOutput(process.env.JCC_TEST_LOGS === '1');
    if (options.languageModel ?? true) {
      llm = await startScriptedLlmServer(
        bedrock
          ? {
              sigV4: {
                region: BEDROCK_TEST_REGION,
                service: 'bedrock-mantle',
                credentials: TEST_AWS_CREDENTIALS,
              },
            }
          : {},
      );
    }
    for (const name of variables) delete process.env[name];
    Object.assign(
      process.env,
      stackEnvironment(llm?.baseURL ?? null, options.env, options.provider),
    );
    stack = await startLocalStack(process.env, (line) => output?.lines.push(`${line}\n`));
  });
  afterAll(async () => {
    await Promise.all([stack?.close(), llm?.close()]);
    output?.restore();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  afterEach(() => {
    // Standing in for Bedrock, every request a test made must have been signed as AWS checks it.
    const unsigned = bedrock ? [...(llm?.signatureFailures ?? [])] : [];
    llm?.reset();
    expect(unsigned, 'requests to the Bedrock stand-in with a bad signature').toEqual([]);
  });
  return {
    get stack() {
      if (stack === undefined) throw new Error('useLocalStack: the stack runs only inside tests');
      return stack;
    },
    get llm() {
      if (llm === undefined) throw new Error('useLocalStack: this stack has no scripted model');
      return llm;
    },
    get output() {
      return output?.lines ?? [];
    },
    client(node = NODE_A) {
      if (stack === undefined) throw new Error('useLocalStack: the stack runs only inside tests');
      return createApiClient(stack.url, { key: apiKeyOf(node) });
    },
  };
}

export interface CapturedOutput {
  readonly lines: string[];
  restore(): void;
}

type Write = typeof process.stdout.write;
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * Records what reaches process.stdout, process.stderr and the global console. Powertools writes
 * through a Console of its own bound to process.stdout, which looks `write` up on every call, so
 * replacing the method catches its lines too.
 */
export function captureProcessOutput(passThrough: boolean): CapturedOutput {
  const lines: string[] = [];
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write);
  streams.forEach((stream, index) => {
    const original = writes[index];
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      if (passThrough && original !== undefined)
        return original.call(stream, chunk, ...(rest as []));
      const callback = rest.at(-1);
      if (typeof callback === 'function') callback();
      return true;
    }) as Write;
  });
  const consoles = CONSOLE_METHODS.map((name) => console[name]);
  for (const [index, name] of CONSOLE_METHODS.entries()) {
    console[name] = (...values: unknown[]) => {
      lines.push(`${format(...values)}\n`);
      if (passThrough) consoles[index]?.(...values);
    };
  }
  return {
    lines,
    restore: () => {
      streams.forEach((stream, index) => {
        const original = writes[index];
        if (original !== undefined) stream.write = original;
      });
      CONSOLE_METHODS.forEach((name, index) => {
        const original = consoles[index];
        if (original !== undefined) console[name] = original;
      });
    },
  };
}
