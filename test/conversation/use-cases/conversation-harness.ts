import { afterAll, afterEach, beforeAll } from 'vitest';
import { DynamoDbConversationStore } from '../../../shared/adapters/dynamodb';
import { OpenAiLanguageModel } from '../../../shared/adapters/openai';
import {
  DEFAULT_ENGINE_SETTINGS,
  type EngineSettings,
} from '../../../shared/conversation/engine-settings';
import { inThreadWork } from '../../../shared/conversation/turn/in-thread-work';
import type { ConversationDependencies } from '../../../shared/conversation/use-cases/conversation-dependencies';
import { startConversation } from '../../../shared/conversation/use-cases/start-conversation';
import { type RunningDynalite, startDynalite } from '../../support/dynalite';
import { fixedClock, fixtureRegistration, sequentialIds } from '../../support/engine-fixtures';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../support/scripted-llm-server';

export const NODE = { nodeId: 'kitchen', timezone: 'America/New_York', room: 'kitchen' } as const;

export interface ConversationHarness {
  readonly llm: ScriptedLlmServer;
  readonly database: RunningDynalite;
  dependencies(settings?: Partial<EngineSettings>): ConversationDependencies;
  /** Starts a conversation with the fixture's commands and returns its id. */
  start(conversationId?: string): Promise<string>;
}

/**
 * Real parts for the engine: dynalite for the store, and the real `openai` SDK (through our
 * adapter) against a scripted OpenAI-compatible server that rejects invalid histories.
 */
export function useConversationHarness(): ConversationHarness {
  let llm: ScriptedLlmServer | undefined;
  let database: RunningDynalite | undefined;
  beforeAll(async () => {
    [llm, database] = await Promise.all([startScriptedLlmServer(), startDynalite()]);
  });
  afterAll(async () => {
    await Promise.all([llm?.close(), database?.close()]);
  });
  afterEach(() => llm?.reset());
  const harness: ConversationHarness = {
    get llm() {
      if (llm === undefined) throw new Error('harness not started');
      return llm;
    },
    get database() {
      if (database === undefined) throw new Error('harness not started');
      return database;
    },
    dependencies: (settings = {}) => {
      const clock = fixedClock();
      return {
        store: new DynamoDbConversationStore({
          client: harness.database.client,
          tableName: harness.database.tableName,
          clock,
        }),
        model: new OpenAiLanguageModel({
          baseURL: harness.llm.baseURL,
          apiKey: 'sk-test-secret',
          model: 'scripted',
          backoff: { baseDelayMs: 5, maxDelayMs: 20 },
        }),
        clock,
        ids: sequentialIds(),
        // No warm-up unless a test asks: it would take the first scripted reply.
        settings: { ...DEFAULT_ENGINE_SETTINGS, warmUpTimeoutMs: 0, ...settings },
        // The use cases' own tests: in-thread. The HTTP tests run the real worker.
        untrustedWork: inThreadWork,
      };
    },
    start: async (conversationId = `conversation-${Math.random().toString(36).slice(2)}`) => {
      await startConversation(harness.dependencies(), {
        node: NODE,
        conversationId,
        requestTimezone: null,
        commands: fixtureRegistration(),
      });
      return conversationId;
    },
  };
  return harness;
}
