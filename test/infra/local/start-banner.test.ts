import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../../functions/http/contract/api-routes';
import { type NodeKeyOrigin, NodeKeyOrigin as Origin } from '../../../infra/local/local-node-key';
import { readLocalSettings } from '../../../infra/local/local-settings';
import type { LocalStack } from '../../../infra/local/local-stack';
import type { LocalNode } from '../../../infra/local/seed-local-nodes';
import { renderStartBanner, sayCommand } from '../../../infra/local/start-banner';

const KEY = 'secret-key-3f9a1c0d7e2b';

/** What startLocalStack reports for these settings and nodes (the banner reads nothing else). */
function stackWith(options: {
  readonly env?: Readonly<Record<string, string>>;
  readonly origin: NodeKeyOrigin;
  readonly keyFile?: string | null;
  readonly url?: string;
  readonly model?: boolean;
  readonly nodes?: readonly string[];
  readonly speech?: LocalStack['speech'];
  readonly timing?: LocalStack['timing'];
  readonly registered?: readonly string[];
}): LocalStack {
  const nodes: LocalNode[] = (options.nodes ?? ['local-node']).map((nodeId) => ({
    nodeId,
    key: KEY,
    origin: options.origin,
    keyFile: options.keyFile ?? null,
  }));
  return {
    url: options.url ?? 'http://127.0.0.1:3000',
    settings: readLocalSettings(options.env ?? {}),
    dynamoDbEndpoint: 'http://127.0.0.1:8000',
    tableName: 'jcc-local',
    nodes,
    languageModelConfigured: options.model ?? false,
    speech: options.speech ?? { speaks: 'embedded Flite, voice slt', hears: null },
    ...(options.timing === undefined ? {} : { timing: options.timing }),
    ...(options.model
      ? {
          languageModel: { model: 'qwen2.5:7b', url: 'http://127.0.0.1:11434/v1/chat/completions' },
        }
      : {}),
    ...(options.registered === undefined ? {} : { registeredNodeIds: options.registered }),
    close: async () => undefined,
  };
}

describe('the npm start banner: the deadlines of a local model', () => {
  const timing = { turnDeadlineMs: 45_000, warmUpTimeoutMs: 40_000 };

  it('says the deadline and warm-up it chose, and which settings change them', () => {
    const banner = renderStartBanner(
      stackWith({
        origin: Origin.generated,
        model: true,
        timing: { ...timing, setForLocalModel: ['TURN_DEADLINE_MS', 'WARMUP_TIMEOUT_MS'] },
      }),
      apiRoutes,
    );

    expect(banner).toContain('The model is on a local address: a turn may take 45 s');
    expect(banner).toContain('the warm-up of conversation/start 40 s');
    expect(banner).toContain('(set TURN_DEADLINE_MS and WARMUP_TIMEOUT_MS to change them)');
  });

  it('says nothing of them when the user set both, or the model is hosted', () => {
    const banner = renderStartBanner(
      stackWith({
        origin: Origin.generated,
        model: true,
        timing: { ...timing, setForLocalModel: [] },
      }),
      apiRoutes,
    );

    expect(banner).not.toContain('local address');
  });
});

describe('the npm start banner: which node key to send', () => {
  it('says it reuses the key stored in DATA_DIR, and prints it', () => {
    // Act
    const banner = renderStartBanner(
      stackWith({ origin: Origin.stored, keyFile: '/data/local-node-key' }),
      apiRoutes,
    );

    // Assess
    expect(banner).toContain('Reusing the node key stored in DATA_DIR (/data/local-node-key)');
    expect(banner).not.toContain('Generated');
    expect(banner).toContain(`X-API-Key: local-node:${KEY}`);
  });

  it.each([
    [
      'stored for the next runs',
      '/data/local-node-key',
      'stored in DATA_DIR (/data/local-node-key)',
    ],
    ['for this run only', null, 'for this run only (DATA_DIR=memory keeps nothing'],
  ])('says it generated a key %s, and prints it', (_case, keyFile, says) => {
    // Act
    const banner = renderStartBanner(stackWith({ origin: Origin.generated, keyFile }), apiRoutes);

    // Assess
    expect(banner).toContain(`Generated a node key`);
    expect(banner).toContain(says);
    expect(banner).not.toContain('Reusing');
    expect(banner).toContain(`X-API-Key: local-node:${KEY}`);
  });

  it('never prints a key the user set in LOCAL_NODE_API_KEY, only the node ids', () => {
    // Act
    const banner = renderStartBanner(
      stackWith({ origin: Origin.environment, nodes: ['hall', 'kitchen'] }),
      apiRoutes,
    );

    // Assess
    expect(banner).not.toContain(KEY);
    expect(banner).toContain('Nodes from LOCAL_NODE_API_KEY: hall, kitchen');
    expect(banner).toContain('(with the same LOCAL_NODE_API_KEY set)');
  });
});

describe('the npm start banner: the model', () => {
  it('without one (LLM_MODEL=none), offers the embedded model or a server, OPENAI_API_KEY only if needed', () => {
    // Act
    const banner = renderStartBanner(stackWith({ origin: Origin.stored }), apiRoutes);

    // Assess
    expect(banner).toContain('Unset LLM_MODEL\nto run the embedded model');
    expect(banner).toContain('or set OPENAI_BASE_URL and LLM_MODEL');
    expect(banner).toContain('OPENAI_API_KEY only if that server needs one');
  });

  it('the embedded model: its file, where it is cached, and how fast it answered its warm-up', () => {
    // Prepare
    const stack: LocalStack = {
      ...stackWith({ origin: Origin.stored, model: true }),
      languageModel: null,
      embeddedModel: {
        name: 'Qwen3-1.7B-Q4_K_M.gguf',
        path: '/home/u/.cache/jcc-serverless/models/unsloth/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q4_K_M.gguf',
        cachedIn: '/home/u/.cache/jcc-serverless/models/unsloth/Qwen3-1.7B-GGUF',
        threads: 2,
        warmUp: { milliseconds: 1_430, promptTokens: 28 },
        close: async () => undefined,
      },
    };

    // Act
    const banner = renderStartBanner(stack, apiRoutes);

    // Assess
    expect(banner).toContain(
      'model                Qwen3-1.7B-Q4_K_M.gguf, embedded (llama.cpp, 2 threads; LLM_MODEL)',
    );
    expect(banner).toContain(
      'cached in /home/u/.cache/jcc-serverless/models/unsloth/Qwen3-1.7B-GGUF',
    );
    expect(banner).toContain('warm-up answered in 1.4 s (28 prompt tokens)');
    expect(banner).not.toContain('No language model');
  });

  it('the embedded model: a warm-up past its time is finished, the next request waits for it', () => {
    // Prepare
    const embedded = (model: boolean): LocalStack => ({
      ...stackWith({
        origin: Origin.stored,
        model: true,
        timing: {
          turnDeadlineMs: 45_000,
          warmUpTimeoutMs: 40_000,
          setForLocalModel: ['TURN_DEADLINE_MS', 'WARMUP_TIMEOUT_MS'],
        },
      }),
      ...(model
        ? {
            languageModel: null,
            embeddedModel: {
              name: 'Qwen3-1.7B-Q4_K_M.gguf',
              path: '/models/Qwen3-1.7B-Q4_K_M.gguf',
              cachedIn: null,
              threads: 2,
              warmUp: { milliseconds: 900, promptTokens: 28 },
              close: async () => undefined,
            },
          }
        : {}),
    });

    // Act
    const [inProcess, onServer] = [true, false].map((model) =>
      renderStartBanner(embedded(model), apiRoutes),
    );

    // Assess
    expect(inProcess).toContain('The model runs in this process: a turn may take 45 s');
    expect(inProcess).toContain(
      'past that time\nconversation/start answers and the model finishes it, the next request waiting for it.',
    );
    expect(onServer).not.toContain('the model finishes it');
  });

  it('with one, says nothing about it', () => {
    // Act
    const banner = renderStartBanner(stackWith({ origin: Origin.stored, model: true }), apiRoutes);

    // Assess
    expect(banner).not.toContain('OPENAI_BASE_URL');
  });

  it('lists every route of the route table', () => {
    // Act
    const banner = renderStartBanner(stackWith({ origin: Origin.stored }), apiRoutes);

    // Assess
    for (const route of apiRoutes) expect(banner).toContain(`http://127.0.0.1:3000${route.path}`);
  });
});

describe('sayCommand: the npm run say line that finds this server and its key', () => {
  it.each([
    ['the defaults', {}, Origin.stored, undefined, `npm run say -- "what's the weather tomorrow"`],
    [
      'another DATA_DIR',
      { DATA_DIR: '/srv/jcc' },
      Origin.stored,
      undefined,
      `DATA_DIR=${resolve('/srv/jcc')} npm run say -- "what's the weather tomorrow"`,
    ],
    [
      'another port',
      {},
      Origin.generated,
      'http://127.0.0.1:3001',
      `npm run say -- --url http://127.0.0.1:3001 "what's the weather tomorrow"`,
    ],
    [
      'DATA_DIR=memory',
      { DATA_DIR: 'memory' },
      Origin.generated,
      undefined,
      `npm run say -- --key local-node:${KEY} "what's the weather tomorrow"`,
    ],
  ] as const)('with %s', (_case, env, origin, url, expected) => {
    // Act
    const command = sayCommand(stackWith({ env, origin, ...(url ? { url } : {}) }));

    // Assess
    expect(command).toBe(expected);
  });
});

describe('the npm start banner: speech', () => {
  it('says in one line what speaks, and in one line what to set for speech in', () => {
    // Act
    const banner = renderStartBanner(stackWith({ origin: Origin.generated }), apiRoutes);

    // Assess
    expect(banner).toContain('speech out           embedded Flite, voice slt');
    const speechIn = banner.split('\n').filter((line) => line.includes('STT_BASE_URL='));
    expect(speechIn).toHaveLength(1);
    expect(speechIn[0]).toContain('STT_MODEL=');
  });

  it('names the recognizer and says nothing more when speech in is configured', () => {
    const banner = renderStartBanner(
      stackWith({
        origin: Origin.generated,
        speech: { speaks: null, hears: 'whisper-1 at http://127.0.0.1:8000/v1' },
      }),
      apiRoutes,
    );

    expect(banner).toContain('speech in            whisper-1 at http://127.0.0.1:8000/v1');
    expect(banner).toContain('speech out           none (TTS_PROVIDER=none)');
    expect(banner).not.toContain('STT_BASE_URL=');
  });
});

describe('the npm start banner: nodes and model', () => {
  it('lists every node of the table, those node:add registered too', () => {
    // Act
    const banner = renderStartBanner(
      stackWith({ origin: Origin.stored, registered: ['hall', 'kitchen', 'local-node'] }),
      apiRoutes,
    );

    // Assess
    expect(banner).toContain('  nodes                hall, kitchen, local-node\n');
  });

  it('says which model the voice routes call, and where', () => {
    // Act
    const banner = renderStartBanner(stackWith({ origin: Origin.stored, model: true }), apiRoutes);

    // Assess
    expect(banner).toContain(
      '  model                qwen2.5:7b at http://127.0.0.1:11434/v1/chat/completions',
    );
    expect(banner).not.toContain('No language model configured');
  });
});
