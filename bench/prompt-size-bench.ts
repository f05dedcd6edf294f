// The first model request the engine builds for the fixture (system + user message + tools), in
// characters and o200k tokens. It is captured, not rebuilt: the real use cases run in process on
// a map store and hand their request to a recording model, then the OpenAI adapter turns it into
// the wire body. Run directly (`npx tsx bench/prompt-size-bench.ts`) to print the rows.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildChatRequest } from '../shared/adapters/openai/chat-request';
import { randomIds } from '../shared/adapters/system/system-clock';
import { DEFAULT_ENGINE_SETTINGS } from '../shared/conversation/engine-settings';
import type { ConversationDependencies } from '../shared/conversation/use-cases/conversation-dependencies';
import { handleVoiceCommand } from '../shared/conversation/use-cases/handle-voice-command';
import { startConversation } from '../shared/conversation/use-cases/start-conversation';
import type { ModelRequest } from '../shared/ports/language-model';
import type { BenchRow } from './bench-row';
import { InMemoryConversationStore, InMemoryRequestLocks } from './engine/bench-stores';
import { fixtureRegistration } from './engine/fixture-registration';
import { InstantLanguageModel } from './engine/instant-model';
import { reply } from './engine/scripted-replies';
import { formatBenchTable } from './format-table';
import { chatPromptSize } from './token-count';

/** Issue 11's goal for the first model request of the fixture. */
export const FIRST_REQUEST_CHARACTER_BUDGET = 9_500;

const NODE = { nodeId: 'bench-node', timezone: 'America/New_York', room: 'kitchen' } as const;
const UTTERANCE = "What's the weather in Paris tomorrow?";
/** A fixed instant (a Wednesday: the stamp's weekday is part of the user message). */
const NOW = Date.UTC(2026, 10, 25, 14, 30);

/** The wire body of the first turn's first model request for the fixture registration. */
export async function firstModelRequest(): Promise<ReturnType<typeof buildChatRequest>> {
  const requests: ModelRequest[] = [];
  const model = new InstantLanguageModel((request) => {
    requests.push(request);
    return reply('It will be sunny in Paris tomorrow.');
  });
  const dependencies: ConversationDependencies = {
    store: new InMemoryConversationStore(),
    requestLocks: new InMemoryRequestLocks(),
    model,
    clock: { now: () => NOW },
    ids: randomIds,
    settings: DEFAULT_ENGINE_SETTINGS,
  };
  const conversationId = 'prompt-size';
  const commands = fixtureRegistration();
  await startConversation(dependencies, {
    node: NODE,
    conversationId,
    requestTimezone: null,
    commands,
  });
  // A warm-up at start, if any, is not a turn's request.
  requests.length = 0;
  await handleVoiceCommand(dependencies, { node: NODE, conversationId, utterance: UTTERANCE });
  const [first] = requests;
  if (first === undefined) throw new Error('the voice/command turn made no model request');
  return buildChatRequest(first, { model: 'bench' });
}

export async function runPromptSizeBench(): Promise<BenchRow[]> {
  const body = await firstModelRequest();
  const size = chatPromptSize({ messages: body.messages, tools: body.tools ?? [] });
  const roles = body.messages.map((message) => message.role).join(' + ');
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
  ];
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(formatBenchTable(await runPromptSizeBench()));
}
