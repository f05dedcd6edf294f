import fc from 'fast-check';
import { ROUTES, type RoutePath } from './handler-harness';

export const CONVERSATION_ID = 'fuzz-conversation';
const KEY = 'fuzz-node:fuzz-key';

const commandBody = { conversation_id: CONVERSATION_ID, voice_command: 'set a timer' };
const continueBody = {
  conversation_id: CONVERSATION_ID,
  tool_results: [{ tool_call_id: 'call_x', output: 'ok' }],
};

const validBodies: Record<RoutePath, Record<string, unknown>> = {
  '/api/v0/conversation/start': {
    conversation_id: 'fuzz-other',
    available_commands: [
      {
        command_name: 'set_timer',
        parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
      },
    ],
  },
  '/api/v0/voice/command': commandBody,
  '/api/v0/voice/command/stream': commandBody,
  '/api/v0/voice/command/continue': continueBody,
  '/api/v0/voice/command/continue/stream': continueBody,
  '/api/v0/voice/acknowledge': { voice_command: 'what is the weather' },
  '/api/v0/wake-response': {},
  '/api/v0/chat': { messages: [{ role: 'system', content: 'Summarise: sunny, 24 C.' }] },
  '/api/v0/media/tts/speak': { text: 'It is sunny.' },
  '/api/v0/media/tts/speak/stream': { text: 'It is sunny.' },
  // Takes multipart only: every JSON variation of this is a 415 before anything is read.
  '/api/v0/media/whisper/transcribe': { file: 'not a recording' },
};

function validBody(path: RoutePath): Record<string, unknown> {
  const found = validBodies[path];
  if (found === undefined) throw new Error(`hostile-input.ts has no valid body for ${path}`);
  return found;
}

const deepNesting = fc
  .integer({ min: 50, max: 5_000 })
  .map((depth) => `${'['.repeat(depth)}1${']'.repeat(depth)}`);
const deepObject = fc.integer({ min: 50, max: 3_000 }).map((depth) =>
  JSON.stringify({
    conversation_id: 'deep',
    available_commands: [
      {
        command_name: 'x',
        examples: [
          {
            voice_command: 'x',
            expected_parameters: JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
          },
        ],
      },
    ],
  }),
);
const prototypeKeys = fc.constantFrom(
  '{"__proto__": {"admin": true}, "conversation_id": "x", "voice_command": "hi"}',
  '{"constructor": {"prototype": {"admin": true}}, "conversation_id": "x", "voice_command": "hi"}',
  '{"conversation_id": "x", "available_commands": [{"command_name": "__proto__"}]}',
  '{"conversation_id": "x", "available_commands": [{"command_name": "t", "parameters": [{"name": "__proto__", "type": "int"}]}]}',
  '{"conversation_id": "x", "client_tools": [{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"constructor": {"type": "string"}}}}}]}',
);
const oddUnicode = fc.string({ unit: 'binary', maxLength: 200 });
const invalidUtf8 = fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes));

/** A valid body with one field replaced by anything at all. */
const mutated = (path: RoutePath) =>
  fc
    .tuple(
      fc.constantFrom(...Object.keys(validBody(path)), 'extra', 'tool_results', 'node_context'),
      fc.anything(),
    )
    .map(([field, value]) => JSON.stringify({ ...validBody(path), [field]: value }));

const huge = fc.constantFrom(
  JSON.stringify({ conversation_id: CONVERSATION_ID, voice_command: 'x'.repeat(300_000) }),
  JSON.stringify({ conversation_id: CONVERSATION_ID, voice_command: 'y'.repeat(5_000) }),
  JSON.stringify({ conversation_id: 'z'.repeat(10_000), voice_command: 'hi' }),
  JSON.stringify({
    conversation_id: 'c',
    available_commands: Array.from({ length: 500 }, (_, i) => ({ command_name: `c${i}` })),
  }),
);

export const body = (path: RoutePath): fc.Arbitrary<string | Buffer> =>
  fc.oneof(
    { weight: 3, arbitrary: mutated(path) },
    { weight: 2, arbitrary: fc.json() },
    { weight: 1, arbitrary: fc.string() },
    {
      weight: 1,
      arbitrary: oddUnicode.map((text) =>
        JSON.stringify({ ...validBody(path), voice_command: text }),
      ),
    },
    { weight: 1, arbitrary: invalidUtf8 },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: deepObject },
    { weight: 1, arbitrary: prototypeKeys },
    { weight: 1, arbitrary: huge },
    { weight: 1, arbitrary: fc.constant(JSON.stringify(validBody(path))) },
  );

export const headers: fc.Arbitrary<Record<string, string>> = fc.record({
  'content-type': fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/xml',
    '',
    'APPLICATION/JSON',
  ),
  'x-api-key': fc.constantFrom(
    KEY,
    KEY,
    KEY,
    '',
    'fuzz-node',
    ':',
    'fuzz-node:',
    'fuzz-node:wrong',
    'other:fuzz-key',
    `${KEY}:extra`,
    'x'.repeat(5_000),
  ),
});

export const request = fc
  .constantFrom(...ROUTES)
  .chain((path) => fc.record({ path: fc.constant(path), body: body(path), headers }));
