import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEntityArgument, knownEntities } from '../../../shared/params';
import { looseEntityKey } from '../../../shared/params/entities/known-entities';

const LISTED = ['light.office_ceiling', 'light.desk_lamp', 'lock.front_door', 'switch.kettle'];
const entities = knownEntities(LISTED, true);
const listedKeys = new Set(LISTED.map(looseEntityKey));

/** An id the list does not hold, even ignoring case and punctuation. Ids always hold a dot. */
const unlistedId = fc
  .tuple(fc.constantFrom('lock', 'light', 'cover', 'camera'), fc.stringMatching(/^[a-z]{2,10}$/))
  .map(([domain, name]) => `${domain}.${name}`)
  .filter((id) => !listedKeys.has(looseEntityKey(id)));

/** A listed id as a model miswrites it: case changed, `_` as `-` or a blank. */
const miswrittenId = fc
  .tuple(fc.constantFrom(...LISTED), fc.constantFrom('-', ' ', '_'), fc.boolean())
  .map(([id, separator, upper]) => {
    const written = id.replaceAll('_', separator);
    return upper ? written.toUpperCase() : written.replace(/^./, (first) => first.toUpperCase());
  })
  .filter((id) => !LISTED.includes(id));

/** Any id a model may write: listed, miswritten, or not listed. */
const anyId = fc.oneof(fc.constantFrom(...LISTED), miswrittenId, unlistedId);

/** Text that is not an entity id: no dot, and never under an entity property. */
const filler = fc.stringMatching(/^[a-z ]{0,12}$/);
const fillerKey = fc
  .stringMatching(/^[a-z_]{1,10}$/)
  .filter((key) => key !== 'entity_id' && key !== 'entity_ids');

/**
 * Arguments in every shape an entity id can take: `entity_id` as a string, an array of them, an
 * object holding them (`{"id": ...}`), `entity_ids`, each nested in objects and arrays of objects,
 * beside values that are not ids.
 */
const { args } = fc.letrec((tie) => ({
  holder: fc.oneof(
    { depthSize: 'small' },
    anyId,
    fc.array(anyId, { maxLength: 3 }),
    fc.record({ id: anyId }),
    fc.array(fc.record({ id: anyId }), { maxLength: 2 }),
    fc.record({ id: anyId, also: tie('holder') }),
  ),
  value: fc.oneof(
    { depthSize: 'small' },
    filler,
    fc.integer(),
    fc.boolean(),
    tie('args'),
    fc.array(tie('args'), { maxLength: 3 }),
  ),
  args: fc
    .tuple(
      fc.dictionary(fillerKey, tie('value'), { maxKeys: 3 }),
      fc.option(tie('holder'), { nil: undefined }),
      fc.option(fc.array(anyId, { maxLength: 3 }), { nil: undefined }),
    )
    .map(([others, entityId, entityIds]) => ({
      ...others,
      ...(entityId === undefined ? {} : { entity_id: entityId }),
      ...(entityIds === undefined ? {} : { entity_ids: entityIds }),
    })),
}));

/** Every string holding a dot, wherever it stands: by construction, the ids in `value`. */
function idsIn(value: unknown): string[] {
  if (typeof value === 'string') return value.includes('.') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(idsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(idsIn);
  return [];
}

const isListed = (id: string) => LISTED.includes(id);
const isMiswritten = (id: string) => !isListed(id) && listedKeys.has(looseEntityKey(id));

describe('checkEntityArgument on every shape an entity id can take', () => {
  it.each(['lossless', 'lenient'] as const)(
    'under %s, passes only listed ids to the node, miswritten ones repaired',
    (policy) => {
      fc.assert(
        fc.property(args, (sent) => {
          // Act
          const check = checkEntityArgument('probe', sent, entities, policy);

          // Assess
          const ids = idsIn(sent);
          const unlisted = ids.filter((id) => !isListed(id) && !isMiswritten(id));
          expect(check.ok).toBe(unlisted.length === 0);
          if (!check.ok) {
            expect(check.issues.length).toBeGreaterThan(0);
            for (const issue of check.issues) expect(unlisted).toContain(issue.received);
            return;
          }
          expect(idsIn(check.arguments).every(isListed)).toBe(true);
          expect(check.repairs).toHaveLength(ids.filter(isMiswritten).length);
          expect(idsIn(check.arguments)).toHaveLength(ids.length);
        }),
      );
    },
  );

  it('under strict, passes only what is listed exactly and repairs nothing', () => {
    fc.assert(
      fc.property(args, (sent) => {
        // Act
        const check = checkEntityArgument('probe', sent, entities, 'strict');

        // Assess
        expect(check.ok).toBe(idsIn(sent).every(isListed));
        if (check.ok) expect(check.arguments).toEqual(sent);
      }),
    );
  });

  it('never changes a value that is not under an entity property', () => {
    fc.assert(
      fc.property(args, (sent) => {
        // Prepare: the same ids under other names are not entity ids.
        const renamed = JSON.parse(JSON.stringify(sent).replaceAll('"entity_id', '"device_id'));

        // Act
        const check = checkEntityArgument('probe', renamed, entities, 'lossless');

        // Assess
        expect(check).toEqual({ ok: true, arguments: renamed, repairs: [] });
      }),
    );
  });
});

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
