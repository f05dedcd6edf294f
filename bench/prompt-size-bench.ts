// The first model request the engine builds for the fixture (system + user message + tools), in
// characters and o200k tokens, without and with the 50-device home of the second fixture. It is
// captured, not rebuilt: the real use cases run in process on a map store and hand their request
// to a recording model, then the OpenAI adapter turns it into the wire body. Run directly
// (`npx tsx bench/prompt-size-bench.ts`) to print the rows; `--print` prints the requests too.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildChatRequest } from '../shared/adapters/openai/chat-request';
import { randomIds } from '../shared/adapters/system/system-clock';
import { DEFAULT_ENGINE_SETTINGS } from '../shared/conversation/engine-settings';
import { inThreadWork } from '../shared/conversation/turn/in-thread-work';
import type { ConversationDependencies } from '../shared/conversation/use-cases/conversation-dependencies';
import { handleVoiceCommand } from '../shared/conversation/use-cases/handle-voice-command';
import { startConversation } from '../shared/conversation/use-cases/start-conversation';
import type { ModelRequest } from '../shared/ports/language-model';
import type { BenchRow } from './bench-row';
import { InMemoryConversationStore } from './engine/bench-stores';
import { fixtureRegistration } from './engine/fixture-registration';
import { homeNodeContext } from './engine/home-registration';
import { InstantLanguageModel } from './engine/instant-model';
import { reply } from './engine/scripted-replies';
import { formatBenchTable } from './format-table';
import { chatPromptSize } from './token-count';

/** Issue 11's goal for the first model request of the fixture. */
export const FIRST_REQUEST_CHARACTER_BUDGET = 9_500;
/** Issue 20's goal: with a 50-device home, within 1.35 times the first request without (9,229). */
export const HOME_REQUEST_CHARACTER_BUDGET = Math.floor(9_229 * 1.35);

const NODE = { nodeId: 'bench-node', timezone: 'America/New_York', room: 'kitchen' } as const;
const HOME_NODE = { nodeId: 'bench-home-node', timezone: 'America/New_York', room: 'Office' };
const UTTERANCE = "What's the weather in Paris tomorrow?";
const NEXT_UTTERANCE = 'Turn off the office light.';
/** A fixed instant (a Wednesday: the stamp's weekday is part of the user message). */
const NOW = Date.UTC(2026, 10, 25, 14, 30);

type WireBody = ReturnType<typeof buildChatRequest>;

/**
 * The wire bodies of the model requests of two utterances of one conversation for the fixture
 * registration: without a home, or with the second fixture's 50 devices, room and speaker.
 */
export async function twoUtteranceRequests(withHome: boolean): Promise<WireBody[]> {
  const requests: ModelRequest[] = [];
  const model = new InstantLanguageModel((request) => {
    requests.push(request);
    return reply('Done.');
  });
  const dependencies: ConversationDependencies = {
    store: new InMemoryConversationStore(),
    model,
    clock: { now: () => NOW },
    ids: randomIds,
    settings: DEFAULT_ENGINE_SETTINGS,
    untrustedWork: inThreadWork,
  };
  const node = withHome ? HOME_NODE : NODE;
  const home = withHome ? homeNodeContext() : { agents: null, speakerUserId: null };
  const conversationId = 'prompt-size';
  await startConversation(dependencies, {
    node,
    conversationId,
    requestTimezone: null,
    commands: fixtureRegistration(),
    ...home,
  });
  // A warm-up at start, if any, is not a turn's request.
  requests.length = 0;
  await handleVoiceCommand(dependencies, { node, conversationId, utterance: UTTERANCE });
  await handleVoiceCommand(dependencies, { node, conversationId, utterance: NEXT_UTTERANCE });
  return requests.map((request) => buildChatRequest(request, { model: 'bench' }));
}

/** The wire body of the first turn's first model request for the fixture registration. */
export async function firstModelRequest(withHome = false): Promise<WireBody> {
  const [first] = await twoUtteranceRequests(withHome);
  if (first === undefined) throw new Error('the voice/command turn made no model request');
  return first;
}

/**
 * Whether the second utterance's request starts with the whole first request's prompt: the
 * same tools, and the first request's messages, byte for byte, at the start of its own.
 */
export function prefixKept(first: WireBody, second: WireBody): boolean {
  const sameTools = JSON.stringify(first.tools) === JSON.stringify(second.tools);
  const shared = second.messages.slice(0, first.messages.length);
  return sameTools && JSON.stringify(shared) === JSON.stringify(first.messages);
}

export async function runPromptSizeBench(): Promise<BenchRow[]> {
  const body = await firstModelRequest();
  const size = chatPromptSize({ messages: body.messages, tools: body.tools ?? [] });
  const roles = body.messages.map((message) => message.role).join(' + ');
  const [homeFirst, homeSecond] = await twoUtteranceRequests(true);
  if (homeFirst === undefined || homeSecond === undefined)
    throw new Error('a turn made no request');
  const home = chatPromptSize({ messages: homeFirst.messages, tools: homeFirst.tools ?? [] });
  return [
    {
      name: `prompt: first model request (${roles} + tools JSON), fixture`,
      value: size.characters,
      unit: 'chars',
      budget: FIRST_REQUEST_CHARACTER_BUDGET,
    },
    { name: 'prompt: first model request, o200k tokens', value: size.o200kTokens, unit: 'tokens' },
    {
      name: 'prompt: of which the system message, o200k tokens',
      value: size.messageTokens[0] ?? 0,
      unit: 'tokens',
    },
    {
      name: 'prompt: of which the tools JSON, o200k tokens',
      value: size.toolTokens,
      unit: 'tokens',
    },
    {
      name: 'prompt: first model request with a 50-device home (room, speaker)',
      value: home.characters,
      unit: 'chars',
      budget: HOME_REQUEST_CHARACTER_BUDGET,
    },
    { name: 'prompt: with the home, o200k tokens', value: home.o200kTokens, unit: 'tokens' },
    {
      name: "prompt: with the home, first request inside the second utterance's (1 = yes)",
      value: prefixKept(homeFirst, homeSecond) ? 1 : 0,
      unit: 'bool',
      budget: 1,
    },
  ];
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  if (process.argv.includes('--print')) {
    for (const withHome of [false, true]) {
      const body = await firstModelRequest(withHome);
      console.log(`\n=== first request, ${withHome ? 'with' : 'without'} the 50-device home ===`);
      for (const message of body.messages) console.log(`--- ${message.role}\n${message.content}`);
      console.log(`--- tools: ${JSON.stringify(body.tools).length} characters of JSON`);
    }
  }
  console.log(formatBenchTable(await runPromptSizeBench()));
}
