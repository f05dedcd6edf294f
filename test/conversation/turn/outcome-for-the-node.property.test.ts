import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toVoiceCommandResponse } from '../../../functions/http/answers/voice-response';
import { outcomeForTheNode } from '../../../shared/conversation/turn/outcome-for-the-node';
import type { TurnOutcome } from '../../../shared/conversation/turn/turn-outcome';
import { knownEntities, UNLISTED_ENTITY, withoutUnlistedEntityIds } from '../../../shared/params';
import { looseEntityKey } from '../../../shared/params/entities/entity-id-shape';
import { makeIssue } from '../../../shared/params/validation/make-issue';

const LISTED = ['light.office_ceiling', 'lock.front_door', 'switch.kettle'];
const entities = knownEntities(LISTED, true);
const listedKeys = new Set(LISTED.map(looseEntityKey));

/** `text` in full-width letters, as a model copying from a CJK text may write it. */
const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (character) =>
    String.fromCharCode((character.codePointAt(0) ?? 0) + 0xfee0),
  );

/**
 * An id the node did not list, even ignoring case and punctuation: `lock.garage`. Its object id
 * is five letters or more: in text, `image.png` and `script.js` are file names.
 */
const unlistedId = fc
  .tuple(
    fc.constantFrom('lock', 'cover', 'alert', 'tts', 'wake_word', 'binary_sensor'),
    fc.stringMatching(/^[a-z][a-z_]{3,9}[a-z]$/),
  )
  .map(([domain, name]) => `${domain}.${name}`)
  .filter((id) => !listedKeys.has(looseEntityKey(id)));

/** How a model may write an id: as it is, or in any form the entity check reads as the same id. */
const written = fc.constantFrom(
  (id: string) => id,
  (id: string) => id.toUpperCase(),
  (id: string) => id.replace(/^./, (first) => first.toUpperCase()),
  fullWidth,
  (id: string) => id.replace('.', '.\u200b'),
  (id: string) => `${id}\ufe0f`,
  (id: string) => id.replace(/_|(.)$/, (match) => `\u034f${match}`),
  (id: string) => `${id}\u0000 now`,
  (id: string) => id.replace(/[a-z]$/, (last) => `%${(last.codePointAt(0) ?? 0).toString(16)}`),
  (id: string) => id.replace('.', '%2E'),
  (id: string) => id.replace('.', '\uff0e'),
  (id: string) => id.replace('_', '\u0007_'),
);

/** Words around the ids: never a stop, so no id is made of them. */
const word = fc.stringMatching(/^[a-z]{1,8}$/);

/** What stands between pieces of a text: blanks, quotes, brackets, JSON's punctuation. */
const separator = fc.constantFrom(' ', ', ', '\n', ': ', '"', ' (', ') ', '`', '[', '] ', '{"a":"');

/** A piece of text and the unlisted id in it, if any. */
const piece = fc.oneof(
  word.map((text) => ({ text, unlisted: null as string | null })),
  fc.constantFrom(...LISTED).map((text) => ({ text, unlisted: null as string | null })),
  fc.tuple(unlistedId, written).map(([id, write]) => ({ text: write(id), unlisted: id })),
);

/** A text of pieces, ending as a sentence may; and the unlisted ids written in it. */
const text = fc
  .tuple(
    fc.array(fc.tuple(piece, separator), { minLength: 1, maxLength: 8 }),
    fc.constantFrom('', '.', '?', '...'),
  )
  .map(([pieces, end]) => ({
    text: pieces.map(([each, between]) => each.text + between).join('') + end,
    unlisted: pieces.flatMap(([each]) => (each.unlisted === null ? [] : [each.unlisted])),
    listed: pieces.flatMap(([each]) => (LISTED.includes(each.text) ? [each.text] : [])),
  }));

/**
 * The text as a node might read it: percent escapes decoded, compatibility forms folded,
 * what a reader does not see taken out (a blank and a NUL end an id), lower case. An id left in it is found by a search.
 */
function asANodeReadsIt(value: string): string {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // A text with a lone `%`: read as it is.
  }
  return decoded
    .normalize('NFKC')
    .replaceAll('\u0000', ' ')
    .replace(/(?!\s)[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}]/gu, '')
    .toLowerCase();
}

/** Every string of a JSON value (keys too). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [key, ...stringsOf(child)]);
}

describe('withoutUnlistedEntityIds', () => {
  it('leaves no unlisted id in a text, however written, and every listed one as it was', () => {
    fc.assert(
      fc.property(text, ({ text: sent, unlisted, listed }) => {
        // Act
        const redacted = withoutUnlistedEntityIds(sent, entities);

        // Assess
        const read = asANodeReadsIt(redacted);
        for (const id of unlisted) expect(read, JSON.stringify(redacted)).not.toContain(id);
        for (const id of listed) expect(redacted).toContain(id);
        if (unlisted.length > 0) expect(redacted).toContain(UNLISTED_ENTITY);
        else expect(redacted).toBe(sent);
      }),
      { numRuns: 2_000 },
    );
  });

  it('changes nothing when the node’s list is incomplete or missing', () => {
    fc.assert(
      fc.property(text, ({ text: sent }) => {
        expect(withoutUnlistedEntityIds(sent, knownEntities(LISTED, false))).toBe(sent);
        expect(withoutUnlistedEntityIds(sent, null)).toBe(sent);
      }),
      { numRuns: 200 },
    );
  });
});

/** A value a model may send: unlisted ids in strings, keys, and split in `domain` and `object_id`. */
const sentValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text.map((each) => each.text),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.oneof(
        word,
        text.map((each) => each.text),
      ),
      tie('value'),
      { maxKeys: 3 },
    ),
    fc
      .tuple(unlistedId, fc.constantFrom('object_id', 'entity_object_id', 'name', 'id'))
      .map(([id, key]) => {
        const [domain, objectId] = id.split('.');
        return { domain, [key]: objectId };
      }),
  ),
})).value;

/** A turn's outcome whose every text the model wrote may hold unlisted ids. */
const outcome: fc.Arbitrary<TurnOutcome> = fc
  .record({
    answer: fc.option(text.map((each) => each.text)),
    question: fc.option(
      fc.record({ question: text.map((each) => each.text), name: text.map((each) => each.text) }),
    ),
    issues: fc.array(
      fc.record({
        code: fc.constantFrom('unknown_entity', 'wrong_type', 'unknown_tool', 'unknown_parameter'),
        command: fc.oneof(
          word,
          text.map((each) => each.text),
        ),
        parameter: fc.option(text.map((each) => each.text)),
        expected: text.map((each) => each.text),
        received: sentValue,
      }),
      { maxLength: 4 },
    ),
    repairs: fc.array(
      fc.record({ parameter: text.map((each) => each.text), before: sentValue, after: sentValue }),
      { maxLength: 3 },
    ),
  })
  .map(({ answer, question, issues, repairs }) => ({
    stopReason: question === null ? 'complete' : 'validation_required',
    assistantMessage: answer,
    toolCalls: [],
    validationRequest:
      question === null
        ? null
        : {
            question: question.question,
            parameterName: question.name,
            options: null,
            toolCallId: 'call_1',
          },
    modelCalls: 2,
    retries: [
      {
        reason: 'invalid_arguments',
        issues: issues.map((issue) =>
          makeIssue({ ...issue, validValues: ['lock.front_door'], parameterType: null }),
        ),
      },
    ],
    repairs: repairs.map((repair) => ({ command: 'open_doors', rule: 'trim', ...repair })),
    stepLimitReached: false,
    usage: null,
  }));

describe('a response to the node', () => {
  it('holds no entity id the node did not list in any part the model wrote', () => {
    fc.assert(
      fc.property(outcome, (sent) => {
        // Act
        const response = toVoiceCommandResponse(
          { ...outcomeForTheNode(sent, entities), utterance: 'open the doors' },
          'conversation-1',
        );

        // Assess: no string of the response reads as an unlisted id of a known domain.
        for (const each of stringsOf(response)) {
          const read = asANodeReadsIt(each);
          const ids = read.match(/[a-z_]+\.[\p{L}\p{N}_-]+/gu) ?? [];
          for (const id of ids) {
            const [domain] = id.split('.');
            if (entities.domains.has(domain ?? '') && !['open_doors'].includes(domain ?? '')) {
              expect(listedKeys.has(looseEntityKey(id)), `${id} in ${JSON.stringify(each)}`).toBe(
                true,
              );
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
