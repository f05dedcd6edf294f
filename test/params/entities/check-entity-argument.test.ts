import { describe, expect, it } from 'vitest';
import {
  buildRetryMessage,
  checkEntityArgument,
  knownEntities,
  UNLISTED_ENTITY,
  withoutUnlistedEntityIds,
} from '../../../shared/params';
import { closestEntities } from '../../../shared/params/entities/closest-entities';

const IDS = [
  'light.office_ceiling',
  'light.desk_lamp',
  'light.kitchen_ceiling',
  'switch.kettle',
  'lock.front_door',
  'media_player.apple_tv',
];
const entities = knownEntities(IDS, true);
const check = (entityId: unknown, policy: 'strict' | 'lossless' | 'lenient' = 'lossless') =>
  checkEntityArgument(
    'control_device',
    { action: 'turn_off', entity_id: entityId },
    entities,
    policy,
  );

describe('checkEntityArgument: an entity_id against the node’s device list', () => {
  it.each(IDS)('passes %s, a listed id, unchanged', (id) => {
    expect(check(id)).toEqual({
      ok: true,
      arguments: { action: 'turn_off', entity_id: id },
      repairs: [],
    });
  });

  it.each([
    ['case', 'Light.Office_Ceiling', 'light.office_ceiling'],
    ['punctuation', 'light.office-ceiling', 'light.office_ceiling'],
    ['blanks', 'media player.apple tv', 'media_player.apple_tv'],
  ])('repairs a difference of %s, recorded, under lossless and lenient', (_case, sent, listed) => {
    for (const policy of ['lossless', 'lenient'] as const) {
      expect(check(sent, policy)).toEqual({
        ok: true,
        arguments: { action: 'turn_off', entity_id: listed },
        repairs: [
          {
            command: 'control_device',
            parameter: 'entity_id',
            rule: 'match_entity_ignoring_case',
            before: sent,
            after: listed,
          },
        ],
      });
    }
  });

  it('repairs nothing under strict: the case difference is an issue naming the listed id', () => {
    const result = check('Light.Office_Ceiling', 'strict');

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]?.validValues?.[0]).toBe('light.office_ceiling');
  });

  it('does not repair when two listed ids share the loose key: the model chooses', () => {
    const twins = knownEntities(['light.a_b', 'light.ab'], true);

    const result = checkEntityArgument(
      'control_device',
      { entity_id: 'Light.A-B' },
      twins,
      'lossless',
    );

    expect(result.ok).toBe(false);
  });

  it('makes an unknown id an issue with the closest listed ids, best first', () => {
    const result = check('light.office_light');

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]).toMatchObject({
      code: 'unknown_entity',
      command: 'control_device',
      parameter: 'entity_id',
      received: 'light.office_light',
    });
    expect(result.issues[0]?.validValues?.[0]).toBe('light.office_ceiling');
    expect(buildRetryMessage(result.issues, [])).toContain(
      '- control_device.entity_id: "light.office_light" is not in the device list; expected an entity_id from the device list. Closest: light.office_ceiling, ',
    );
  });

  it('lets an unknown id pass when the list is incomplete: the device may exist', () => {
    const partial = knownEntities(IDS, false);

    const result = checkEntityArgument(
      'control_device',
      { entity_id: 'light.attic' },
      partial,
      'lossless',
    );

    expect(result).toEqual({ ok: true, arguments: { entity_id: 'light.attic' }, repairs: [] });
  });

  it.each([
    ['absent', undefined],
    ['not a string', 42],
  ])('leaves an entity_id that is %s to the parameter’s own validation', (_case, value) => {
    expect(check(value).ok).toBe(true);
  });
});

describe('checkEntityArgument on a string a NUL ends for a node in C', () => {
  const issuesOf = (args: Record<string, unknown>) => {
    const result = checkEntityArgument('control_device', args, entities, 'lossless');
    return result.ok ? [] : result.issues.map((issue) => [issue.parameter, issue.received]);
  };

  it('sends back an unlisted id before the NUL once', () => {
    expect(issuesOf({ entity_id: 'lock.back_door\u0000 now' })).toEqual([
      ['entity_id', 'lock.back_door\u0000 now'],
    ]);
  });

  it('names each unlisted id once, so that the ids after it are still reported', () => {
    const issues = issuesOf({
      entity_id: 'lock.back_door, lock.side_door\u0000x',
      target: ['light.attic', 'light.porch'],
    });

    expect(issues).toEqual([
      ['entity_id', 'lock.back_door'],
      ['entity_id', 'lock.side_door\u0000x'],
      ['target[0]', 'light.attic'],
      ['target[1]', 'light.porch'],
    ]);
  });
});

describe('checkEntityArgument on JSON encoded in a string', () => {
  it.each(['[]', '{}', '[1]', '""'])(
    'refuses an entity_id of %s: it encodes no id, so it is read as one',
    (encoded) => {
      expect(check(encoded).ok).toBe(false);
    },
  );

  it('repairs a listed id inside an encoded list and writes the list again', () => {
    expect(check('["Lock.Front-Door", "switch.kettle"]')).toMatchObject({
      ok: true,
      arguments: { entity_id: '["lock.front_door","switch.kettle"]' },
      repairs: [{ parameter: 'entity_id[0]', before: 'Lock.Front-Door', after: 'lock.front_door' }],
    });
  });
});

describe('checkEntityArgument on an id with percent escapes (an argument put in a URL path)', () => {
  it.each(['lock.garage%5Fdoor', 'lock%2Egarage_door', '%6Cock.garage_door'])(
    'sends %s back: it decodes to an unlisted id',
    (sent) => {
      const result = checkEntityArgument('probe', { target: sent }, entities, 'lossless');

      expect(result.ok).toBe(false);
    },
  );

  it('repairs a listed id written with escapes, and leaves text with a stray % as it is', () => {
    const result = checkEntityArgument(
      'probe',
      { target: 'lock.front%5Fdoor', note: '100% sure' },
      entities,
      'lossless',
    );

    expect(result).toMatchObject({
      ok: true,
      arguments: { target: 'lock.front_door', note: '100% sure' },
    });
  });
});

describe('checkEntityArgument with the device list’s own domains', () => {
  it.each([
    ['a domain that starts with a digit', ['1wire.sensor_a'], '1wire.sensor_b'],
    ['a domain that starts with an underscore', ['_hidden.lamp'], '_hidden.other'],
  ])('reads an id of %s as an id anywhere', (_case, listed, unlisted) => {
    const own = knownEntities(listed, true);

    const result = checkEntityArgument('probe', { target: unlisted }, own, 'lossless');

    expect(result.ok).toBe(false);
  });

  it('reads 3.5 as text, unless the device list has a domain 3', () => {
    const own = knownEntities(['3.lamp'], true);

    expect(checkEntityArgument('probe', { target: '3.5' }, own, 'lossless').ok).toBe(false);
    expect(checkEntityArgument('probe', { target: '3.5' }, entities, 'lossless').ok).toBe(true);
  });
});

describe('closestEntities', () => {
  it('names at most three, never one that shares nothing with the value', () => {
    expect(closestEntities('kettle', entities)).toEqual(['switch.kettle']);
    expect(closestEntities('qqq', entities)).toEqual([]);
    expect(closestEntities('light', entities)).toHaveLength(3);
  });

  it('finds a device from its spoken name', () => {
    expect(closestEntities('front door lock', entities)[0]).toBe('lock.front_door');
  });
});

describe('checkEntityArgument: ids inside other text', () => {
  const note = (text: string) =>
    checkEntityArgument('remind', { note: text }, entities, 'lossless');

  it.each([
    ['a sentence', 'open lock.garage_door now'],
    ['a URL path', 'http://ha.local:8123/api/states/lock.garage_door'],
    ['a sentence end', 'I opened lock.garage_door.'],
    ['an id of a domain the list has none of', 'see alert.garage_door'],
  ])('sends back an unlisted id in %s', (_, text) => {
    const checked = note(text);

    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.issues.map((issue) => issue.code)).toEqual(['unknown_entity']);
  });

  it.each([
    ['file names', 'play https://example.com/image.png, then script.js and event.ics'],
    ['host names', 'ask time.google.com or weather.com, or update.microsoft.com'],
    ['a longer dotted name', 'read lock.garage_door.state and www.light.example'],
    ['listed ids, miswritten or not', 'open lock.front_door and LIGHT.DESK-LAMP'],
    ['a blank after the dot', 'the lock. garage door'],
    ['sites', 'forecast from weather.gov; https://group.me/join; site:weather.gov'],
    ['e-mail addresses', 'email fan.zhang@example.com, cc sun.li@corp.cn and info@weather.gov'],
    ['file names', 'attach schedule.docx and image.heic; see /blob/main/light.ts'],
    ['code', 'use time.sleep(5), date.today() and text.split() with number.toFixed(2)'],
    ['a missing blank after a full stop', 'Turn off the light.Then lock up. The sun.It was bright'],
    ['a capital in a name', 'the update.V2 release by Sun.Ra'],
  ])('passes %s inside text, unchanged', (_, text) => {
    expect(note(text)).toEqual({ ok: true, arguments: { note: text }, repairs: [] });
    expect(withoutUnlistedEntityIds(text, entities)).toBe(text);
  });

  it.each([
    ['Chinese', '打开lock.back_door吧', 'lock.back_door'],
    ['Japanese', 'lock.back_doorを開けて', 'lock.back_door'],
    ['a sentence', 'Lock.garage_door is open', 'Lock.garage_door'],
    ['capitals', 'OPEN LOCK.GARAGE_DOOR', 'LOCK.GARAGE_DOOR'],
  ])('sends back an unlisted id inside %s text, and says it only as unlisted', (_, text, id) => {
    const checked = note(text);

    expect(checked.ok).toBe(false);
    expect(withoutUnlistedEntityIds(text, entities)).toBe(text.replace(id, UNLISTED_ENTITY));
  });
});
