import { describe, expect, it } from 'vitest';
import { InvalidTimezoneError } from '../../../shared/conversation/errors';
import { dateContextForNode } from '../../../shared/conversation/use-cases/date-context-for-node';

const NOW = Date.parse('2026-07-01T12:00:00Z');
const node = (timezone: string | null) => ({ nodeId: 'n', timezone, room: null });

describe('dateContextForNode: the zone it answers in', () => {
  it.each([
    ['the registry’s, whatever the node asks', 'Europe/Berlin', 'Asia/Kolkata', 'Europe/Berlin'],
    [
      'the registry’s, even when the asked zone does not exist',
      'Europe/Berlin',
      'Nowhere/X',
      'Europe/Berlin',
    ],
    ['the asked zone when the registry has none', null, 'Asia/Kolkata', 'Asia/Kolkata'],
    ['UTC when neither names one', null, null, 'UTC'],
  ])('%s', (_case, registered, requested, expected) => {
    const context = dateContextForNode(node(registered), requested, NOW);
    expect(context.timezone.user_timezone).toBe(expected);
  });

  it('refuses a zone the node asks for by a name that does not exist, when it is the one to use', () => {
    expect(() => dateContextForNode(node(null), 'Nowhere/X', NOW)).toThrow(InvalidTimezoneError);
  });
});
