/**
 * `npm run say -- "what's the weather tomorrow"`: a small client for people. It registers a command
 * set (default: the realistic one in test/fixtures), sends the utterance to the local API, prints
 * the response readably and, with --auto, answers tool calls with canned results so a whole
 * exchange can be watched.
 *
 * It reads the settings `npm start` reads (PORT, HOST, DATA_DIR, LOCAL_NODE_API_KEY), so run it
 * with the same ones. Options: --url URL (default: HOST and PORT as npm start listens),
 * --key node_id:node_key (default: the first of LOCAL_NODE_API_KEY, else the key stored in
 * DATA_DIR), --commands FILE, --conversation ID, --auto, --results FILE (JSON: tool name ->
 * output), --answer TEXT (for a clarification).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { routePath } from '../../functions/http/contract/api-routes';
import { parseNodeCredentials } from '../../shared/adapters/node-key';
import { findLocalNodeKeys, localNodeKeyFile, NodeKeyOrigin } from '../local/local-node-key';
import { type LocalSettings, localApiUrl, readLocalSettings } from '../local/local-settings';
import { printResponse } from './print-response';
import { parseToolArguments } from './tool-arguments';

const USAGE = `usage: npm run say -- [options] "utterance"

Registers a command set with the local API (npm start), sends the utterance and prints the answer.
It reads PORT, HOST, DATA_DIR and LOCAL_NODE_API_KEY as npm start does.

options:
  --url URL                 the API (default: HOST and PORT as npm start listens)
  --key NODE_ID:NODE_KEY    the node key (default: the first of LOCAL_NODE_API_KEY, else the
                            key npm start stored in DATA_DIR)
  --commands FILE           the conversation/start body (default: test/fixtures/voice-node-conversation-start.json)
  --conversation ID         the conversation id (default: a new one)
  --auto                    answer tool calls with canned results, to watch a whole exchange
  --results FILE            JSON: tool name -> output, for --auto
  --answer TEXT             the user's answer to a clarification
  -h, --help                this text`;

const { values, positionals } = parseToolArguments(
  { name: 'say', usage: USAGE },
  {
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      commands: { type: 'string', default: 'test/fixtures/voice-node-conversation-start.json' },
      conversation: { type: 'string' },
      auto: { type: 'boolean', default: false },
      results: { type: 'string' },
      answer: { type: 'string' },
    },
  },
);

const utterance = positionals.join(' ').trim();
if (utterance === '') fail('say what? e.g. npm run say -- "set a timer for 5 minutes"');
const settings = attempt(() => readLocalSettings(process.env));
const url =
  values.url ??
  localApiUrl(settings) ??
  fail('PORT=0 lets npm start pick its port: pass --url with the address its banner printed');
const { key, source } = await nodeKey(settings);
const cannedResults = values.results
  ? (JSON.parse(await readFile(values.results, 'utf8')) as Record<string, unknown>)
  : {};
const conversationId = values.conversation ?? randomUUID();

const registration = JSON.parse(await readFile(values.commands, 'utf8')) as Record<string, unknown>;
await post(routePath('conversation-start'), { ...registration, conversation_id: conversationId });
console.log(`conversation ${conversationId} started\n> ${utterance}`);
let response = await post(routePath('voice-command'), {
  conversation_id: conversationId,
  voice_command: utterance,
});

for (let round = 0; round < 5; round += 1) {
  printResponse(response);
  const toolCalls = (response.tool_calls ?? []) as { id: string; function: { name: string } }[];
  const validation = response.validation_request as { tool_call_id: string } | null;
  if (response.stop_reason === 'tool_calls' && values.auto) {
    const toolResults = toolCalls.map((call) => ({
      tool_call_id: call.id,
      output: cannedResults[call.function.name] ?? {
        status: 'ok',
        note: 'canned result from npm run say',
      },
    }));
    response = await post(routePath('voice-command-continue'), {
      conversation_id: conversationId,
      tool_results: toolResults,
    });
  } else if (response.stop_reason === 'validation_required' && validation && values.answer) {
    console.log(`> ${values.answer}`);
    const toolResults = [{ tool_call_id: validation.tool_call_id, output: values.answer }];
    response = await post(routePath('voice-command-continue'), {
      conversation_id: conversationId,
      tool_results: toolResults,
    });
  } else {
    break;
  }
}

/**
 * The key `npm start` seeds with the same settings: --key, else LOCAL_NODE_API_KEY (its first
 * node), else the key stored in DATA_DIR (`.data` unless set). `source` says where it came from.
 */
async function nodeKey(local: LocalSettings): Promise<{ key: string; source: string }> {
  if (values.key !== undefined) return { key: values.key, source: '--key' };
  const found = await findLocalNodeKeys(local).catch((error: Error) => fail(error.message));
  if (found === null) {
    fail(
      local.dataDir === null
        ? 'DATA_DIR=memory keeps no node key: pass --key with the X-API-Key npm start printed'
        : `no node key in ${localNodeKeyFile(local.dataDir)}: run say with the DATA_DIR and ` +
            'LOCAL_NODE_API_KEY npm start runs with, or pass --key node_id:node_key',
    );
  }
  const [first] = attempt(() => parseNodeCredentials(found.credentials));
  if (first === undefined) fail(`no node_id:node_key in ${found.file ?? 'LOCAL_NODE_API_KEY'}`);
  const source =
    found.origin === NodeKeyOrigin.environment ? 'LOCAL_NODE_API_KEY' : String(found.file);
  return { key: `${first.nodeId}:${first.key}`, source };
}

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  let answer: Response;
  try {
    answer = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify(body),
    });
  } catch (error) {
    fail(
      `cannot reach ${url} (is npm start running? say dials PORT and HOST as it does, or --url): ${String(error)}`,
    );
  }
  const text = await answer.text();
  const json = attempt(
    () => JSON.parse(text) as Record<string, unknown>,
    `${url}${path} answered ${answer.status} with no JSON: ${text.slice(0, 200)}`,
  );
  if (answer.status === 401) {
    const nodeId = key.slice(0, Math.max(key.indexOf(':'), 0));
    fail(
      `${url} refused the key of node "${nodeId}" (401), taken from ${source}.\n` +
        '  npm start seeds LOCAL_NODE_API_KEY when it is set, else the key stored in its DATA_DIR ' +
        '(.data unless set): run say with the same DATA_DIR and LOCAL_NODE_API_KEY, or pass ' +
        '--key with the X-API-Key its banner printed.',
    );
  }
  if (!answer.ok) fail(describeError(path, answer.status, json));
  return json;
}

function describeError(path: string, status: number, json: Record<string, unknown>): string {
  const error = json.error as { code?: string; message?: string; details?: unknown[] } | undefined;
  if (error?.code === undefined) return `${path} answered ${status}: ${JSON.stringify(json)}`;
  const details = error.details?.length ? `\n  details: ${JSON.stringify(error.details)}` : '';
  return `${path} answered ${status} ${error.code}: ${error.message ?? ''}${details}`;
}

/** Runs `read`; a throw becomes one line of the user's fault (a setting), not a stack trace. */
function attempt<T>(read: () => T, message?: string): T {
  try {
    return read();
  } catch (error) {
    fail(message ?? (error instanceof Error ? error.message : String(error)));
  }
}

function fail(message: string): never {
  console.error(`say: ${message}`);
  process.exit(2);
}
