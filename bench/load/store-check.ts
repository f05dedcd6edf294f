import { createDynamoDbClient, DynamoDbConversationStore } from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';
import { DEFAULT_ENGINE_SETTINGS } from '../../shared/conversation/engine-settings';
import { checkConversation, historyCharacters } from './history-check';
import type { ConversationLog } from './load-recorder';

export interface StoreCheck {
  readonly conversations: number;
  readonly acknowledgedTurns: number;
  readonly lostTurns: number;
  readonly lostResults: number;
  readonly droppedByBound: number;
  readonly unacknowledgedTurns: number;
  /** Conversations with a history problem, and the first few problems for the report. */
  readonly conversationsWithProblems: number;
  readonly sampleProblems: readonly string[];
  /** The longest stored history, in the characters the engine's bound counts. */
  readonly largestHistoryCharacters: number;
}

/** Reads in flight at once: enough to be quick, few enough not to queue in dynalite. */
const PARALLEL_READS = 8;

/**
 * Reads every conversation of the run back through the real DynamoDB adapter (the handlers' own
 * read path) and checks each one against what its 200s promised.
 */
export async function checkStore(
  endpoint: string,
  tableName: string,
  logs: readonly ConversationLog[],
): Promise<StoreCheck> {
  const client = createDynamoDbClient({ region: 'us-east-1', endpoint });
  const store = new DynamoDbConversationStore({ client, tableName, clock: systemClock });
  const bound = DEFAULT_ENGINE_SETTINGS.maxHistoryBytes;
  const totals = {
    conversations: logs.length,
    acknowledgedTurns: 0,
    lostTurns: 0,
    lostResults: 0,
    droppedByBound: 0,
    unacknowledgedTurns: 0,
    conversationsWithProblems: 0,
    sampleProblems: [] as string[],
    largestHistoryCharacters: 0,
  };
  const checkOne = async (log: ConversationLog) => {
    const record = await store.load(log.nodeId, log.conversationId);
    const verdict = checkConversation(log, record, bound);
    const size = historyCharacters(record?.messages ?? []);
    totals.largestHistoryCharacters = Math.max(totals.largestHistoryCharacters, size);
    totals.acknowledgedTurns += log.acknowledgedTurns.length;
    totals.lostTurns += verdict.lostTurns;
    totals.lostResults += verdict.lostResults;
    totals.droppedByBound += verdict.droppedByBound;
    totals.unacknowledgedTurns += verdict.unacknowledgedTurns;
    if (verdict.problems.length > 0) {
      totals.conversationsWithProblems += 1;
      const room = 5 - totals.sampleProblems.length;
      const named = verdict.problems.map((problem) => `${log.conversationId}: ${problem}`);
      totals.sampleProblems.push(...named.slice(0, Math.max(0, room)));
    }
  };
  try {
    let next = 0;
    const worker = async () => {
      for (let log = logs[next++]; log !== undefined; log = logs[next++]) await checkOne(log);
    };
    await Promise.all(Array.from({ length: PARALLEL_READS }, worker));
  } finally {
    client.destroy();
  }
  return totals;
}
