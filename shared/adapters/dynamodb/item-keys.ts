import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { TABLE_KEYS } from './table';

/**
 * Single-table keys. A node and its conversations share the partition `NODE#<nodeId>`; the sort
 * key tells them apart. The node id lives entirely in `pk` and the conversation id entirely in
 * `sk`, so no pair of ids can produce another pair's key (even ids containing `#`), and a node
 * asking for another node's conversation id reads its own partition and finds nothing.
 *
 * | item         | pk              | sk                                |
 * |--------------|-----------------|-----------------------------------|
 * | node         | `NODE#<nodeId>` | `NODE`                            |
 * | conversation | `NODE#<nodeId>` | `CONVERSATION#<conversationId>`   |
 * | rate window  | `NODE#<nodeId>` | `RATE#<window start, epoch seconds>` |
 *
 * DynamoDB caps `pk` at 2048 and `sk` at 1024 bytes: ids must stay well under 1000 bytes.
 */
export interface TableKey {
  readonly pk: string;
  readonly sk: string;
}

const NODE_PARTITION_PREFIX = 'NODE#';
const NODE_SORT_KEY = 'NODE';
const CONVERSATION_SORT_PREFIX = 'CONVERSATION#';
const RATE_SORT_PREFIX = 'RATE#';

/** The key of a node's registry item. */
export function nodeKey(nodeId: string): TableKey {
  return { pk: `${NODE_PARTITION_PREFIX}${nodeId}`, sk: NODE_SORT_KEY };
}

/** The key of one conversation of one node. */
export function conversationKey(nodeId: string, conversationId: string): TableKey {
  return {
    pk: `${NODE_PARTITION_PREFIX}${nodeId}`,
    sk: `${CONVERSATION_SORT_PREFIX}${conversationId}`,
  };
}

/** The key of a node's request counter for the window starting at `windowStart` (epoch seconds). */
export function rateWindowKey(nodeId: string, windowStart: number): TableKey {
  return { pk: `${NODE_PARTITION_PREFIX}${nodeId}`, sk: `${RATE_SORT_PREFIX}${windowStart}` };
}

/** The key as DynamoDB attribute values, for `Key` and for the key part of an item. */
export function keyAttributes(key: TableKey): Record<string, AttributeValue> {
  return {
    [TABLE_KEYS.partitionKey.name]: { S: key.pk },
    [TABLE_KEYS.sortKey.name]: { S: key.sk },
  };
}
