import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  LocalSettingsError,
  readLocalSetting,
  readLocalSettings,
} from '../../../infra/local/local-settings';

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
    ['LLM_MMAP', 'yes', 'LLM_MMAP must be one of on, off, got "yes"'],
    ['LLM_TEMPERATURE', 'hot', 'LLM_TEMPERATURE must be a number from 0 to 2, got "hot"'],
  ])('%s=%s stops npm start with one line naming it', (name, value, message) => {
    // Act
    const reading = () => readLocalSettings({ [name]: value });

    // Assess
    expect(reading).toThrow(new LocalSettingsError(message));
  });
});

describe("readLocalSettings: every bad value of npm start's table", () => {
  it.each([
    ['PORT', '80000', 'PORT must be an integer from 0 to 65535, got "80000"'],
    ['DYNAMODB_PORT', 'eight', 'DYNAMODB_PORT must be an integer from 0 to 65535, got "eight"'],
    ['LLM_QUEUE', '-1', 'LLM_QUEUE must be an integer from 0 to 64, got "-1"'],
    ['LLM_TOOL_GRAMMAR', 'yes', 'LLM_TOOL_GRAMMAR must be one of on, off, got "yes"'],
    ['STT_THREADS', '9', 'STT_THREADS must be an integer from 1 to 8, got "9"'],
    ['HF_ENDPOINT', 'hf-mirror.com', 'HF_ENDPOINT must be an http(s) URL'],
  ])('%s=%s is one line saying what it takes', (name, value, message) => {
    // Act
    const reading = () => readLocalSettings({ [name]: value });

    // Assess
    expect(reading).toThrow(new LocalSettingsError(message));
  });

  it('names every bad value at once, in one line, never quoting a URL that may hold a secret', () => {
    // Act
    const failure = (() => {
      try {
        readLocalSettings({
          PORT: 'x',
          LOCAL_NODE_TIMEZONE: 'Mars/Base',
          HF_ENDPOINT: 'https://me:s3cret@mirror.example',
        });
      } catch (error) {
        return error;
      }
      return null;
    })();

    // Assess
    expect(failure).toBeInstanceOf(LocalSettingsError);
    const message = (failure as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toBe(
      'PORT must be an integer from 0 to 65535, got "x"; ' +
        'LOCAL_NODE_TIMEZONE must be an IANA time zone such as Europe/Berlin, got "Mars/Base"; ' +
        'HF_ENDPOINT must not hold a user or password: the URL is shown in progress lines and errors',
    );
    expect(message).not.toContain('s3cret');
  });
});

describe('readLocalSetting', () => {
  it('reads one setting with its check: STT_THREADS', () => {
    expect(readLocalSetting({ STT_THREADS: ' 3 ' }, 'STT_THREADS')).toBe(3);
    expect(readLocalSetting({}, 'STT_THREADS')).toBeNull();
    expect(() => readLocalSetting({ STT_THREADS: '1.5' }, 'STT_THREADS')).toThrow(
      new LocalSettingsError('STT_THREADS must be an integer from 1 to 8, got "1.5"'),
    );
  });

  it('ignores the other settings, good or bad', () => {
    expect(readLocalSetting({ STT_THREADS: '2', PORT: 'x' }, 'STT_THREADS')).toBe(2);
  });
});
