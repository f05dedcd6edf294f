import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEntityArgument, knownEntities } from '../../../shared/params';
import { looseEntityKey } from '../../../shared/params/entities/entity-id-shape';

const LISTED = ['light.office_ceiling', 'light.desk_lamp', 'lock.front_door', 'switch.kettle'];
const entities = knownEntities(LISTED, true);
const listedKeys = new Set(LISTED.map(looseEntityKey));

/** An id the list does not hold, even ignoring case and punctuation. Ids always hold a dot. */
const unlistedId = fc
  .tuple(
    fc.constantFrom('lock', 'light', 'cover', 'camera', 'alert', 'tts', 'wake_word'),
    fc.stringMatching(/^[a-z]{2,10}$/),
    // As sent: plain, or with what a reader does not see (a variation selector, a combining
    // grapheme joiner, a NUL a C string ends at).
    fc.constantFrom('', '\ufe0f', '\u034f', '\u0000'),
  )
  .map(([domain, name, invisible]) => `${domain}.${name}${invisible}`)
  .filter((id) => !listedKeys.has(looseEntityKey(id)));

/** `lock.front_door` in full-width letters, as a model copying from a CJK text may write it. */
const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (character) =>
    String.fromCharCode((character.codePointAt(0) ?? 0) + 0xfee0),
  );

/**
 * A listed id as a model miswrites it, still in the form of an id (so it is one wherever it
 * stands): case changed, `_` as `-`, full-width, a blank at an end, a zero-width space inside.
 */
const formedMiswriting = fc
  .tuple(
    fc.constantFrom(...LISTED),
    fc.constantFrom(
      (id: string) => id.toUpperCase(),
      (id: string) => id.replace(/^./, (first) => first.toUpperCase()),
      (id: string) => id.replaceAll('_', '-'),
      fullWidth,
      (id: string) => `${id} `,
      (id: string) => ` ${id}`,
      (id: string) => id.replace('.', '.\u200b'),
      (id: string) => `${id}\ufe0f`,
      (id: string) => id.replace('_', '\u034f_'),
      (id: string) => `${id}\u0000`,
    ),
  )
  .map(([listed, miswrite]) => ({ written: miswrite(listed), listed }))
  .filter(({ written }) => !LISTED.includes(written));

/** A listed id written with blanks for `_`: an id only under an entity property. */
const blankMiswriting = fc
  .constantFrom(...LISTED.filter((id) => id.includes('_')))
  .map((listed) => ({ written: listed.replaceAll('_', ' '), listed }));

/**
 * What a part of the arguments was generated as: what the model sent, what the node must get
 * (each id as listed; an unlisted one as sent, which only an incomplete list lets through), and
 * how many ids in it are unlisted or repaired.
 */
interface Part {
  readonly sent: unknown;
  readonly expected: unknown;
  readonly unlisted: number;
  readonly repaired: number;
}

const part = (sent: unknown, expected: unknown, unlisted = 0, repaired = 0): Part => ({
  sent,
  expected,
  unlisted,
  repaired,
});

/** Parts side by side, as an array or as an object's properties. */
const together = (parts: readonly Part[]) => ({
  unlisted: parts.reduce((sum, each) => sum + each.unlisted, 0),
  repaired: parts.reduce((sum, each) => sum + each.repaired, 0),
});
const arrayOf = (parts: readonly Part[]): Part => ({
  sent: parts.map((each) => each.sent),
  expected: parts.map((each) => each.expected),
  ...together(parts),
});
const objectOf = (entries: readonly (readonly [string, Part])[]): Part => ({
  sent: Object.fromEntries(entries.map(([key, each]) => [key, each.sent])),
  expected: Object.fromEntries(entries.map(([key, each]) => [key, each.expected])),
  ...together(entries.map(([, each]) => each)),
});

/** An id that has the form of one: an id wherever it stands. */
const formedId: fc.Arbitrary<Part> = fc.oneof(
  fc.constantFrom(...LISTED).map((id) => part(id, id)),
  formedMiswriting.map(({ written, listed }) => part(written, listed, 0, 1)),
  unlistedId.map((id) => part(id, id, 1)),
);

/** Ids in one string, as Home Assistant reads `a.x, b.y` (no blank at an id's ends: it separates). */
const idList: fc.Arbitrary<Part> = fc
  .tuple(
    fc.array(
      formedId.filter(({ sent }) => String(sent).trim() === sent),
      { minLength: 2, maxLength: 3 },
    ),
    fc.constantFrom(', ', ',', ' ', '; '),
  )
  .map(([ids, separator]) => ({
    sent: ids.map((id) => id.sent).join(separator),
    expected: ids.map((id) => id.expected).join(separator),
    ...together(ids),
  }));

/**
 * An id inside other text (a sentence, a URL path, a Python list, ids joined by `|`): an unlisted
 * one is sent back; a listed one, miswritten or not, passes as written (text is never repaired).
 */
const idInText: fc.Arbitrary<Part> = fc
  .tuple(
    fc.constantFrom('open ', 'see (', 'http://ha.local/api/states/', "['", 'lock.front_door|'),
    fc.oneof(
      fc.constantFrom(...LISTED).map((id) => ({ id, unlisted: 0 })),
      formedMiswriting.map(({ written }) => ({ id: written, unlisted: 0 })),
      // Of five letters or more: `image.png`, `script.js` inside text are file names.
      unlistedId
        .filter((id) => (id.split('.')[1] ?? '').length >= 5)
        .map((id) => ({ id, unlisted: 1 })),
    ),
    fc.constantFrom(' now', ').', "']", '|x'),
  )
  .map(([before, { id, unlisted }, after]) => {
    const text = `${before}${id}${after}`;
    return part(text, text, unlisted);
  });

/** Under an entity property every string is an id, even one that lost its form. */
const entityString: fc.Arbitrary<Part> = fc.oneof(
  formedId,
  idList,
  blankMiswriting.map(({ written, listed }) => part(written, listed, 0, 1)),
);

/** A map keyed by ids (`additionalProperties`, `patternProperties`): no two keys for one device. */
const idKeyedMap = fc
  .uniqueArray(fc.tuple(formedId, fc.oneof(fc.boolean(), fc.integer())), {
    maxLength: 3,
    selector: ([key]) => looseEntityKey(String(key.sent)),
  })
  .map((entries) => {
    const keys = entries.map(([key]) => key);
    return {
      sent: Object.fromEntries(entries.map(([key, value]) => [key.sent, value])),
      expected: Object.fromEntries(entries.map(([key, value]) => [key.expected, value])),
      ...together(keys),
    };
  });

/** A part encoded as JSON in a string (a model's encoded list or quoted id): a repair re-encodes it. */
const encoded = (inner: Part): Part => ({
  sent: JSON.stringify(inner.sent),
  expected: JSON.stringify(inner.expected),
  unlisted: inner.unlisted,
  repaired: inner.repaired,
});

/** An id split as Home Assistant names its parts: `{"domain": "lock", "object_id": "front_door"}`. */
const splitId: fc.Arbitrary<Part> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...LISTED).map((id) => ({ written: id, listed: id, unlisted: 0 })),
      fc.constantFrom(...LISTED).map((id) => ({
        written: id.toUpperCase().replaceAll('_', '-'),
        listed: id,
        unlisted: 0,
      })),
      unlistedId.map((id) => ({ written: id, listed: id, unlisted: 1 })),
    ),
    fc.constantFrom(
      ['domain', 'object_id'],
      ['Domain', 'objectId'],
      ['domain', 'name'],
      ['domain', 'id'],
      ['domain', 'entity'],
      ['entity_domain', 'entity_object_id'],
    ),
  )
  .map(([{ written, listed, unlisted }, [domainKey, objectKey]]) => {
    const parts = (id: string) => {
      const [domain, objectId] = id.split('.');
      return { [String(domainKey)]: domain, [String(objectKey)]: objectId };
    };
    return {
      sent: parts(written),
      expected: parts(listed),
      unlisted,
      repaired: written === listed ? 0 : 1,
    };
  });

/** The spellings of `entity_id` and `entity_ids` a schema or a model may use. */
const entityProperty = fc.constantFrom(
  'entity_id',
  'entity_ids',
  'entityId',
  'Entity-IDs',
  fullWidth('entity_id'),
  'entity\u200b_id',
);

/** Text that is not an entity id (no dot), and names that are not entity properties. */
const filler = fc.stringMatching(/^[a-z ]{0,12}$/).map((text) => part(text, text));
const fillerKey = fc
  .stringMatching(/^[a-z_]{1,10}$/)
  .filter(
    (key) =>
      ![
        'entityid',
        'entityids',
        'domain',
        'objectid',
        'entity',
        'entityname',
        'id',
        'name',
      ].includes(key.replaceAll('_', '')),
  );

/**
 * Arguments in every shape an entity id can take: under an entity property as a string, a
 * string listing several, an array or tuple of them, an object holding them (`{"id": ...}`), a map keyed by them, each
 * nested; and elsewhere, as a string, a list in a string or a key with the form of an id, split in `domain` and
 * `object_id`; any of them encoded as JSON in a string; beside values that are not ids, in objects and arrays of
 * objects.
 */
const { args } = fc.letrec<{ holder: Part; value: Part; args: Part }>((tie) => ({
  holder: fc.oneof(
    { depthSize: 'small' },
    entityString,
    fc.array(entityString, { maxLength: 3 }).map(arrayOf),
    fc.tuple(entityString, fc.integer()).map(([id, number]) => arrayOf([id, part(number, number)])),
    entityString.map((id) => objectOf([['id', id]])),
    fc
      .array(
        entityString.map((id) => objectOf([['id', id]])),
        { maxLength: 2 },
      )
      .map(arrayOf),
    idKeyedMap,
    // An encoding of no id at all (`"[]"`) is itself read as an id: unit-tested apart.
    tie('holder')
      .filter((holder) => JSON.stringify(holder.sent).includes('.'))
      .map(encoded),
    fc.tuple(entityString, tie('holder')).map(([id, also]) =>
      objectOf([
        ['id', id],
        ['also', also],
      ]),
    ),
  ),
  value: fc.oneof(
    { depthSize: 'small' },
    filler,
    fc.integer().map((number) => part(number, number)),
    fc.boolean().map((flag) => part(flag, flag)),
    formedId,
    idList,
    idInText,
    idKeyedMap,
    splitId,
    tie('value').map(encoded),
    tie('args'),
    fc.array(tie('args'), { maxLength: 3 }).map(arrayOf),
  ),
  args: fc
    .tuple(
      fc.dictionary(fillerKey, tie('value'), { maxKeys: 3 }),
      fc.array(fc.tuple(entityProperty, tie('holder')), { maxLength: 2 }),
    )
    .map(([others, held]) => {
      const entries = new Map<string, Part>(Object.entries(others));
      for (const [name, holder] of held) entries.set(name, holder);
      return objectOf([...entries]);
    }),
}));

describe('checkEntityArgument on every shape an entity id can take', () => {
  it.each(['lossless', 'lenient'] as const)(
    'under %s, passes only listed ids to the node, miswritten ones repaired where they stand',
    (policy) => {
      fc.assert(
        fc.property(args, (generated) => {
          // Act
          const check = checkEntityArgument('probe', asArguments(generated.sent), entities, policy);

          // Assess
          expect(check.ok).toBe(generated.unlisted === 0);
          if (!check.ok) {
            expect(check.issues.length).toBeGreaterThan(0);
            expect(check.issues.every((issue) => issue.code === 'unknown_entity')).toBe(true);
            return;
          }
          expect(check.arguments).toEqual(generated.expected);
          expect(check.repairs).toHaveLength(generated.repaired);
        }),
      );
    },
  );

  it('under strict, passes only what is listed exactly and repairs nothing', () => {
    fc.assert(
      fc.property(args, (generated) => {
        // Act
        const check = checkEntityArgument('probe', asArguments(generated.sent), entities, 'strict');

        // Assess
        expect(check.ok).toBe(generated.unlisted === 0 && generated.repaired === 0);
        if (check.ok) expect(check.arguments).toEqual(generated.sent);
      }),
    );
  });

  it('with an incomplete list, lets unknown ids through and still repairs miswritten ones', () => {
    const incomplete = knownEntities(LISTED, false);
    fc.assert(
      fc.property(args, (generated) => {
        // Act
        const check = checkEntityArgument(
          'probe',
          asArguments(generated.sent),
          incomplete,
          'lossless',
        );

        // Assess
        expect(check).toMatchObject({ ok: true, arguments: generated.expected });
      }),
    );
  });

  it('never changes text that is not an id, wherever it stands', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fillerKey,
          fc.oneof(
            filler,
            fc
              .constantFrom('example.com', 'notes.txt', '3.5', 'lock garage door')
              .map((text) => part(text, text)),
          ),
          { maxKeys: 4 },
        ),
        (others) => {
          // Prepare: text with a dot that is no id (not a device domain, or blanks) stays text.
          const sent = Object.fromEntries(
            Object.entries(others).map(([key, each]) => [key, each.sent]),
          );

          // Act
          const check = checkEntityArgument('probe', sent, entities, 'lossless');

          // Assess
          expect(check).toEqual({ ok: true, arguments: sent, repairs: [] });
        },
      ),
    );
  });
});

function asArguments(value: unknown): Record<string, unknown> {
  return value as Record<string, unknown>;
}

describe('checkEntityArgument names where each id stands', () => {
  it.each([
    [{ entity_ids: ['lock.front_door', 'lock.garage_door'] }, 'entity_ids[1]'],
    [{ entity_id: { id: 'lock.garage_door' } }, 'entity_id.id'],
    [{ targets: [{ entity_id: 'lock.garage_door' }] }, 'targets[0].entity_id'],
  ])('%j: %s', (sent, parameter) => {
    const check = checkEntityArgument('lock_doors', sent, entities, 'lossless');

    expect(check.ok).toBe(false);
    expect(!check.ok && check.issues.map((issue) => issue.parameter)).toEqual([parameter]);
  });

  it('repairs a miswritten id where it stands and leaves the caller’s value as it was', () => {
    const sent = { targets: [{ entity_id: ['Lock.Front-Door', 'switch.kettle'] }] };

    const check = checkEntityArgument('lock_doors', sent, entities, 'lossless');

    expect(check).toEqual({
      ok: true,
      arguments: { targets: [{ entity_id: ['lock.front_door', 'switch.kettle'] }] },
      repairs: [
        {
          command: 'lock_doors',
          parameter: 'targets[0].entity_id[0]',
          rule: 'match_entity_ignoring_case',
          before: 'Lock.Front-Door',
          after: 'lock.front_door',
        },
      ],
    });
    expect(sent.targets[0]?.entity_id[0]).toBe('Lock.Front-Door');
  });
});
