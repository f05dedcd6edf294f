import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LocalSettingsError, readLocalSettings } from '../../../infra/local/local-settings';

describe('readLocalSettings: LOCAL_NODE_TIMEZONE', () => {
  it.each(['Europe/Berlin', 'UTC', 'America/Argentina/Buenos_Aires'])('takes %s', (zone) => {
    expect(readLocalSettings({ LOCAL_NODE_TIMEZONE: zone }).nodeTimezone).toBe(zone);
  });

  it.each(['Mars/Base', 'Berlin', 'GMT+25'])('refuses %s in one line naming it', (zone) => {
    const reading = () => readLocalSettings({ LOCAL_NODE_TIMEZONE: zone });

    expect(reading).toThrow(LocalSettingsError);
    expect(reading).toThrow(
      `LOCAL_NODE_TIMEZONE must be an IANA time zone such as Europe/Berlin, got "${zone}"`,
    );
  });

  it("uses the machine's zone when unset", () => {
    expect(readLocalSettings({}).nodeTimezone).toBe(
      Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    );
  });
});

describe('readLocalSettings: the embedded model (LLM_*)', () => {
  it('by default: one thread per core available, the weights read in (no mmap), one sequence', () => {
    // Act
    const { embeddedModel } = readLocalSettings({});

    // Assess
    expect(embeddedModel).toEqual({
      runtime: { threads: availableParallelism(), mmap: false, contextSize: 8_192, parallel: 1 },
      queuePlaces: 4,
      toolCallGrammar: false,
      temperature: null,
    });
  });

  it('reads each setting', () => {
    // Act
    const { embeddedModel } = readLocalSettings({
      LLM_THREADS: '3',
      LLM_MMAP: 'on',
      LLM_CONTEXT_SIZE: '4096',
      LLM_PARALLEL: '2',
      LLM_QUEUE: '0',
      LLM_TOOL_GRAMMAR: 'on',
      LLM_TEMPERATURE: '0.7',
    });

    // Assess
    expect(embeddedModel).toEqual({
      runtime: { threads: 3, mmap: true, contextSize: 4_096, parallel: 2 },
      queuePlaces: 0,
      toolCallGrammar: true,
      temperature: 0.7,
    });
  });

  it.each([
    ['LLM_THREADS', '0', 'LLM_THREADS must be an integer from 1 to 256, got "0"'],
    [
      'LLM_CONTEXT_SIZE',
      'big',
      'LLM_CONTEXT_SIZE must be an integer from 512 to 131072, got "big"',
    ],
    ['LLM_MMAP', 'yes', 'LLM_MMAP must be on or off, got "yes"'],
    ['LLM_TEMPERATURE', 'hot', 'LLM_TEMPERATURE must be a number from 0 (greedy) to 2, got "hot"'],
  ])('%s=%s stops npm start with one line naming it', (name, value, message) => {
    // Act
    const reading = () => readLocalSettings({ [name]: value });

    // Assess
    expect(reading).toThrow(new LocalSettingsError(message));
  });
});
