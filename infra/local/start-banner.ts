import { resolve } from 'node:path';
import type { ApiRoute } from '../../functions/http/contract/api-routes';
import { NodeKeyOrigin } from './local-node-key';
import type { LocalStack } from './local-stack';

const DEFAULT_URL = 'http://127.0.0.1:3000';
const DEFAULT_DATA_DIR_NAME = '.data';
const INDENT = '                       ';

/**
 * What `npm start` prints once it listens: where everything is, which node key to send (never a
 * key the user set in LOCAL_NODE_API_KEY), what the model needs, and the commands to try.
 */
export function renderStartBanner(stack: LocalStack, routes: readonly ApiRoute[]): string {
  const routeLines = routes.map((route) => `${route.method.padEnd(4)} ${stack.url}${route.path}`);
  return [
    `JCC local API listening on ${stack.url}
  DynamoDB (dynalite)  ${stack.dynamoDbEndpoint}  table ${stack.tableName}
  health               GET  ${stack.url}/health
  OpenAPI              GET  ${stack.url}/openapi.json
  routes               ${routeLines.join(`\n${INDENT}`)}
  nodes                ${nodeIds(stack).join(', ')}${modelLine(stack)}
  speech out           ${stack.speech.speaks ?? 'none (TTS_PROVIDER=none)'}
  speech in            ${stack.speech.hears ?? 'none'}`,
    nodeKeySection(stack),
    stack.languageModelConfigured ? null : NO_MODEL,
    stack.speech.hears === null ? NO_SPEECH_IN : null,
    localModelTimingSection(stack),
    tryItSection(stack),
  ]
    .filter((section) => section !== null)
    .join('\n\n');
}

/** Every node in the table (`npm run node:add` ones too), else the seeded ones. */
const nodeIds = (stack: LocalStack): readonly string[] =>
  stack.registeredNodeIds ?? stack.nodes.map((node) => node.nodeId);

function modelLine(stack: LocalStack): string {
  const embedded = stack.embeddedModel;
  if (embedded) {
    const where =
      embedded.cachedIn === null ? `file ${embedded.path}` : `cached in ${embedded.cachedIn}`;
    const seconds = (embedded.warmUp.milliseconds / 1000).toFixed(1);
    return `\n  model                ${embedded.name}, embedded (llama.cpp, ${embedded.threads} threads; LLM_MODEL)
${INDENT}${where}
${INDENT}warm-up answered in ${seconds} s (${embedded.warmUp.promptTokens} prompt tokens)`;
  }
  return stack.languageModel
    ? `\n  model                ${stack.languageModel.model} at ${stack.languageModel.url}`
    : '';
}

const NO_MODEL = `No language model configured (LLM_MODEL=none): the voice routes answer 503. Unset LLM_MODEL
to run the embedded model (docs/embedded-model.md), or set OPENAI_BASE_URL and LLM_MODEL (any
OpenAI-compatible server; OPENAI_API_KEY only if that server needs one), e.g.
  OPENAI_BASE_URL=http://localhost:11434/v1 LLM_MODEL=qwen2.5:7b npm start`;

const NO_SPEECH_IN = `No speech in (STT_MODEL=none): media/whisper/transcribe answers 503; unset STT_MODEL to hear with the embedded recognizer's default model (docs/speech.md), or set a whisper server, e.g. STT_BASE_URL=http://localhost:8000/v1 STT_MODEL=Systran/faster-whisper-small npm start`;
/** Says the deadlines npm start chose for a model on a local address, and how to change them. */
function localModelTimingSection(stack: LocalStack): string | null {
  const timing = stack.timing;
  if (timing === undefined || timing.setForLocalModel.length === 0) return null;
  const seconds = (milliseconds: number) => `${milliseconds / 1000} s`;
  const where = stack.embeddedModel ? 'runs in this process' : 'is on a local address';
  // The embedded model finishes a warm-up's prompt past that time (finishPromptPastTimeout).
  const finishing = stack.embeddedModel
    ? `
A command set's first warm-up evaluates its whole prompt (about 2.7k tokens); past that time
conversation/start answers and the model finishes it, the next request waiting for it.`
    : '';
  return `The model ${where}: a turn may take ${seconds(timing.turnDeadlineMs)}, the warm-up of conversation/start ${seconds(timing.warmUpTimeoutMs)},
for a CPU model's cold first turn (set ${timing.setForLocalModel.join(' and ')} to change them).${finishing}`;
}

function nodeKeySection(stack: LocalStack): string | null {
  const node = stack.nodes[0];
  if (node === undefined) return null;
  const header = `  X-API-Key: ${node.nodeId}:${node.key}`;
  switch (node.origin) {
    case NodeKeyOrigin.environment:
      return `Nodes from LOCAL_NODE_API_KEY: ${stack.nodes.map((entry) => entry.nodeId).join(', ')} (send X-API-Key: <node_id>:<its key>)`;
    case NodeKeyOrigin.stored:
      return `Reusing the node key stored in DATA_DIR (${node.keyFile}):\n${header}`;
    case NodeKeyOrigin.generated:
      return node.keyFile === null
        ? `Generated a node key for this run only (DATA_DIR=memory keeps nothing; set LOCAL_NODE_API_KEY to choose one):\n${header}`
        : `Generated a node key, stored in DATA_DIR (${node.keyFile}) for the next runs:\n${header}`;
  }
}

function tryItSection(stack: LocalStack): string {
  const node = stack.nodes[0];
  const ownKey = node !== undefined && node.origin !== NodeKeyOrigin.environment;
  const key = ownKey ? `${node.nodeId}:${node.key}` : '<node_id>:<node_key>';
  return `Try it:
  curl -s ${stack.url}/api/v0/conversation/start -H 'Content-Type: application/json' \\
    -H 'X-API-Key: ${key}' -d @test/fixtures/voice-node-conversation-start.json
  ${sayCommand(stack)}`;
}

/** `npm run say` with what it needs to find this server and its key from another terminal. */
export function sayCommand(stack: LocalStack): string {
  const node = stack.nodes[0];
  const environment: string[] = [];
  const options: string[] = [];
  const dataDir = stack.settings.dataDir;
  if (node?.origin === NodeKeyOrigin.environment) {
    // say reads LOCAL_NODE_API_KEY itself; a key the user set is never printed.
  } else if (dataDir === null) {
    if (node !== undefined) options.push(`--key ${node.nodeId}:${node.key}`);
  } else if (!isDefaultDataDir(dataDir)) {
    environment.push(`DATA_DIR=${dataDir}`);
  }
  if (stack.url !== DEFAULT_URL) options.push(`--url ${stack.url}`);
  const command = [...environment, 'npm run say --', ...options, `"what's the weather tomorrow"`];
  const note =
    node?.origin === NodeKeyOrigin.environment ? '   (with the same LOCAL_NODE_API_KEY set)' : '';
  return `${command.join(' ')}${note}`;
}

const isDefaultDataDir = (dataDir: string): boolean => dataDir === resolve(DEFAULT_DATA_DIR_NAME);
