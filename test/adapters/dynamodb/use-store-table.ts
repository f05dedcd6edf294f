import { randomUUID } from 'node:crypto';
import { DynamoDbConversationStore } from '../../../shared/adapters/dynamodb';
import type { Clock } from '../../../shared/ports/clock';
import { type RunningDynalite, useDynalite } from '../../support/dynalite';
import { MovableClock } from './conversation-fixtures';

export interface StoreTable {
  readonly dynalite: () => RunningDynalite;
  /** The conversation store on this file's table; a `MovableClock` at `NOW_MS` unless given. */
  newStore(options?: { clock?: Clock; maxItemBytes?: number }): DynamoDbConversationStore;
}

/** dynalite for the tests of the calling file, and the DynamoDB adapters on its table. */
export function useStoreTable(): StoreTable {
  const dynalite = useDynalite();
  const table = () => ({ client: dynalite().client, tableName: dynalite().tableName });
  return {
    dynalite,
    newStore: ({ clock = new MovableClock(), maxItemBytes } = {}) =>
      new DynamoDbConversationStore({
        ...table(),
        clock,
        ...(maxItemBytes === undefined ? {} : { maxItemBytes }),
      }),
  };
}

/** Every test writes its own conversation, so tests sharing the table cannot see each other. */
export const freshConversationId = (): string => `conversation-${randomUUID()}`;
