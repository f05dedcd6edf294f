/**
 * `npm run say -- "what's the weather tomorrow"`: a small client for people. It registers a command
 * set (default: the realistic one in test/fixtures), sends the utterance to the local API, prints
 * the response readably and, with --auto, answers tool calls with canned results so a whole
 * exchange can be watched.
 *
 * Options: --url URL (default http://127.0.0.1:$PORT), --key node_id:node_key (default
 * LOCAL_NODE_API_KEY, else the key `npm start` generated), --commands FILE, --conversation ID,
 * --auto, --results FILE (JSON: tool name -> output), --answer TEXT (for a clarification).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { routePath } from '../../functions/http/api-routes';
import { readLocalNodeKey } from '../local/local-node-key';
import { printResponse } from './print-response';

const { values, positionals } = parseArgs({
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
});

const utterance = positionals.join(' ').trim();
if (utterance === '') fail('say what? e.g. npm run say -- "set a timer for 5 minutes"');
const url = values.url ?? `http://127.0.0.1:${process.env.PORT || 3000}`;
const key =
  values.key ??
  process.env.LOCAL_NODE_API_KEY?.split(',')[0] ??
  (await readLocalNodeKey(process.env));
if (!key) fail('no node key: pass --key node_id:node_key or set LOCAL_NODE_API_KEY');
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

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  let answer: Response;
  try {
    answer = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key ?? '' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    fail(`cannot reach ${url} (is npm start running?): ${String(error)}`);
  }
  const json = (await answer.json()) as Record<string, unknown>;
  if (!answer.ok) fail(`${path} answered ${answer.status}: ${JSON.stringify(json, null, 2)}`);
  return json;
}

function fail(message: string): never {
  console.error(`say: ${message}`);
  process.exit(2);
}
