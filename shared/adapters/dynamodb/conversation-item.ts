import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { historyJson } from '../../conversation/history/message-json';
import type {
  ConversationRecord,
  HomeContext,
  PendingToolCall,
} from '../../ports/conversation-store';
import {
  type Item,
  malformed,
  nullableStringValue,
  numberValue,
  readAttribute,
} from './attribute-values';
import { compressText, decompressText } from './compression';
import { conversationKey, keyAttributes } from './item-keys';
import { KnownHistories } from './known-histories';
import { RepeatedTexts } from './repeated-texts';
import { parseStoredHome } from './stored-home';
import { parseStoredMessages } from './stored-messages';
import { parseStoredResponses } from './stored-responses';
import { TABLE_KEYS } from './table';

/**
 * The conversation item. Every attribute is always present (null as DynamoDB NULL), so a
 * replace that sets them all leaves nothing of the previous conversation behind.
 *
 * | attribute          | type | content                                                  |
 * |--------------------|------|----------------------------------------------------------|
 * | pk, sk             | S    | `NODE#<nodeId>`, `CONVERSATION#<conversationId>`         |
 * | record_type        | S    | `conversation`                                           |
 * | node_id            | S    | the node id                                              |
 * | conversation_id    | S    | the conversation id                                      |
 * | version            | N    | optimistic-concurrency counter, +1 on every write        |
 * | created_at         | N    | epoch milliseconds                                       |
 * | updated_at         | N    | epoch milliseconds                                       |
 * | expires_at         | N    | epoch seconds; the table's TTL attribute                 |
 * | timezone           | S    | IANA zone                                                |
 * | room               | S/NULL | the node's room                                        |
 * | home_context       | B/NULL | zstd of JSON `HomeContext` (absent before v0.3: null)    |
 * | speaker_user_id    | N/NULL | the speaker named at start (absent before v0.3: null)   |
 * | command_set_hash   | S    | content hash of the command source                       |
 * | command_source     | B    | zstd of the command registration (canonical JSON)        |
 * | messages           | B    | zstd of the history as JSON `ChatMessage[]`              |
 * | pending_tool_calls | L    | `[{id: S, name: S}]`                                     |
 * | recent_responses   | B    | zstd of JSON `RecordedResponse[]` (absent before v0.2: [])|
 * | write_token        | S    | random per write: tells our own retried write from another |
 * | claim_token        | S    | the turn's claim (absent when none): random per claim    |
 * | claim_request_id   | S    | the claiming request's id                                |
 * | claim_fingerprint  | S    | hash of what the claiming request asked                  |
 * | claim_held_until   | N    | epoch milliseconds after which the claim is void         |
 *
 * The claim attributes are set by `claim` and removed by `release`; a save writes the whole item
 * without them, and a replace removes them.
 *
 * The large attributes are compressed: JSON history shrinks several times, which keeps the
 * item far below DynamoDB's 400 KB limit (and the adapter's own cap, `MAX_CONVERSATION_ITEM_BYTES`).
 * Items written before zstd hold gzip there; they are read as they are (`compression.ts`).
 */
export const ConversationAttribute = {
  recordType: 'record_type',
  nodeId: 'node_id',
  conversationId: 'conversation_id',
  version: 'version',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  expiresAt: TABLE_KEYS.timeToLiveAttribute,
  timezone: 'timezone',
  room: 'room',
  homeContext: 'home_context',
  speakerUserId: 'speaker_user_id',
  commandSetHash: 'command_set_hash',
  commandSource: 'command_source',
  messages: 'messages',
  pendingToolCalls: 'pending_tool_calls',
  recentResponses: 'recent_responses',
  writeToken: 'write_token',
} as const;

/** The attributes of a turn's claim on the conversation (conversation-store.ts `claim`). */
export const ClaimAttribute = {
  token: 'claim_token',
  requestId: 'claim_request_id',
  fingerprint: 'claim_fingerprint',
  heldUntil: 'claim_held_until',
} as const;

const CONVERSATION_RECORD_TYPE = 'conversation';

/** The registration and the home, stored unchanged by every write: compressed once per container. */
const repeated = new RepeatedTexts();

/**
 * The recorded answers as this container last wrote or read them: a turn reads back what the
 * previous one saved without decompressing it, and a save that added none does not compress
 * them again. Apart from `repeated`, so their churn never pushes a registration out.
 */
const recordedAnswers = new RepeatedTexts();

/** The histories this container wrote or read last: read back without parsing them again. */
const knownHistories = new KnownHistories();

/** After `item`, the item of `record`, was written: its history, for the next read of it. */
export function rememberWrittenHistory(item: Item, record: ConversationRecord): void {
  const bytes = item[ConversationAttribute.messages]?.B;
  if (bytes !== undefined) knownHistories.remember(bytes, record.messages);
}

/** The full item for `record`, stored under `version` by the write that `writeToken` names. */
export function conversationToItem(
  record: ConversationRecord,
  version: number,
  writeToken: string,
): Item {
  const key = conversationKey(record.nodeId, record.conversationId);
  return {
    ...keyAttributes(key),
    [ConversationAttribute.recordType]: { S: CONVERSATION_RECORD_TYPE },
    [ConversationAttribute.nodeId]: { S: record.nodeId },
    [ConversationAttribute.conversationId]: { S: record.conversationId },
    [ConversationAttribute.version]: numberValue(version),
    [ConversationAttribute.createdAt]: numberValue(record.createdAt),
    [ConversationAttribute.updatedAt]: numberValue(record.updatedAt),
    [ConversationAttribute.expiresAt]: numberValue(record.expiresAt),
    [ConversationAttribute.timezone]: { S: record.timezone },
    [ConversationAttribute.room]: nullableStringValue(record.room),
    [ConversationAttribute.homeContext]: homeValue(record.home ?? null),
    [ConversationAttribute.speakerUserId]: nullableNumberValue(record.speakerUserId ?? null),
    [ConversationAttribute.commandSetHash]: { S: record.commandSetHash },
    [ConversationAttribute.commandSource]: { B: repeated.compress(record.commandSource) },
    [ConversationAttribute.messages]: { B: compressText(historyJson(record.messages)) },
    [ConversationAttribute.pendingToolCalls]: {
      L: record.pendingToolCalls.map((call) => ({
        M: { id: { S: call.id }, name: { S: call.name } },
      })),
    },
    [ConversationAttribute.recentResponses]: recentResponsesAttribute(record),
    [ConversationAttribute.writeToken]: { S: writeToken },
  };
}

/** The `recent_responses` attribute as a save writes it (and a release that records a replay). */
export function recentResponsesAttribute(
  record: Pick<ConversationRecord, 'recentResponses'>,
): AttributeValue {
  return { B: recordedAnswers.compress(JSON.stringify(record.recentResponses)) };
}

/** The record stored in `item`; throws `StoredItemMalformedError` on a layout it did not write. */
export function itemToConversation(item: Item): ConversationRecord {
  const read = readAttribute;
  return {
    nodeId: read.string(item, ConversationAttribute.nodeId),
    conversationId: read.string(item, ConversationAttribute.conversationId),
    version: read.number(item, ConversationAttribute.version),
    createdAt: read.number(item, ConversationAttribute.createdAt),
    updatedAt: read.number(item, ConversationAttribute.updatedAt),
    expiresAt: read.number(item, ConversationAttribute.expiresAt),
    timezone: read.string(item, ConversationAttribute.timezone),
    room: read.nullableString(item, ConversationAttribute.room),
    home: readHome(item),
    speakerUserId: readSpeaker(item),
    commandSource: readCompressed(item, ConversationAttribute.commandSource, repeated),
    commandSetHash: read.string(item, ConversationAttribute.commandSetHash),
    messages: readMessages(item),
    pendingToolCalls: read
      .list(item, ConversationAttribute.pendingToolCalls)
      .map((entry) => readPendingToolCall(item, entry)),
    recentResponses: readRecentResponses(item),
  };
}

function readCompressed(item: Item, name: string, texts?: RepeatedTexts): string {
  const bytes = readAttribute.binary(item, name);
  try {
    return texts === undefined ? decompressText(bytes) : texts.decompress(bytes);
  } catch (error) {
    throw malformed(item, name, 'is not zstd or gzip data', error);
  }
}

function readCompressedJson(item: Item, name: string, texts?: RepeatedTexts): unknown {
  try {
    return JSON.parse(readCompressed(item, name, texts));
  } catch (error) {
    if (error instanceof SyntaxError) throw malformed(item, name, 'is not JSON', error);
    throw error;
  }
}

function readMessages(item: Item): ConversationRecord['messages'] {
  const name = ConversationAttribute.messages;
  const bytes = item[name]?.B;
  const known = bytes === undefined ? undefined : knownHistories.find(bytes);
  if (known !== undefined) return known;
  const parsed = parseStoredMessages(readCompressedJson(item, name));
  if (!parsed.ok) throw malformed(item, name, parsed.issues.join('; '));
  return bytes === undefined ? parsed.value : knownHistories.remember(bytes, parsed.value);
}

/** Items written before request ids were recorded have no such attribute: nothing recorded. */
function readRecentResponses(item: Item): ConversationRecord['recentResponses'] {
  const name = ConversationAttribute.recentResponses;
  if (item[name] === undefined) return [];
  const parsed = parseStoredResponses(readCompressedJson(item, name, recordedAnswers));
  if (!parsed.ok) throw malformed(item, name, parsed.issues.join('; '));
  return parsed.value;
}

function homeValue(home: HomeContext | null): AttributeValue {
  return home === null ? { NULL: true } : { B: repeated.compress(JSON.stringify(home)) };
}

function nullableNumberValue(value: number | null): AttributeValue {
  return value === null ? { NULL: true } : numberValue(value);
}

/** Items written before the home was kept have no such attribute: no home. */
function readHome(item: Item): HomeContext | null {
  const name = ConversationAttribute.homeContext;
  if (item[name] === undefined || item[name]?.NULL === true) return null;
  const parsed = parseStoredHome(readCompressedJson(item, name, repeated));
  if (!parsed.ok) throw malformed(item, name, parsed.issues.join('; '));
  return parsed.value;
}

function readSpeaker(item: Item): number | null {
  const name = ConversationAttribute.speakerUserId;
  if (item[name] === undefined || item[name]?.NULL === true) return null;
  return readAttribute.number(item, name);
}

function readPendingToolCall(item: Item, entry: AttributeValue): PendingToolCall {
  const id = entry.M?.id?.S;
  const name = entry.M?.name?.S;
  if (id === undefined || name === undefined) {
    throw malformed(
      item,
      ConversationAttribute.pendingToolCalls,
      'holds an entry without id and name',
    );
  }
  return { id, name };
}
