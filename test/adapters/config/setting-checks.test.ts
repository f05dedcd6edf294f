import { describe, expect, it } from 'vitest';
import {
  checkSetting,
  isWithinRange,
  type SettingCheck,
} from '../../../shared/adapters/config/setting-checks';

const range = { kind: 'integer', min: 0, max: 5 } as const;
const policies = { kind: 'oneOf', values: ['strict', 'lossless'] } as const;

describe('checkSetting', () => {
  it.each<[string, SettingCheck, string, unknown]>([
    ['an integer in range', range, '5', 5],
    ['an integer at the low bound', range, '0', 0],
    ['a listed value, any case', policies, 'STRICT', 'strict'],
    ['true', { kind: 'boolean' }, 'True', true],
    ['1', { kind: 'boolean' }, '1', true],
    ['0', { kind: 'boolean' }, '0', false],
    ['an https URL', { kind: 'httpUrl' }, 'https://api.example/v1', 'https://api.example/v1'],
    ['an http URL', { kind: 'httpUrl' }, 'http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1'],
    ['any text', { kind: 'text' }, 'jcc-table', 'jcc-table'],
    ['a secret', { kind: 'secret' }, 'sk-x', 'sk-x'],
    ['a public URL', { kind: 'publicHttpUrl' }, 'https://hf-mirror.com/', 'https://hf-mirror.com/'],
    ['an IANA zone', { kind: 'timeZone' }, 'Europe/Berlin', 'Europe/Berlin'],
    ['UTC', { kind: 'timeZone' }, 'UTC', 'UTC'],
  ])('takes %s', (_case, check, text, expected) => {
    expect(checkSetting('SETTING', text, check)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, SettingCheck, string, string]>([
    ['a number past the range', range, '6', 'SETTING must be an integer from 0 to 5, got "6"'],
    ['a fraction', range, '1.5', 'SETTING must be an integer from 0 to 5, got "1.5"'],
    ['a word', range, 'two', 'SETTING must be an integer from 0 to 5, got "two"'],
    [
      'an unlisted value',
      policies,
      'Sloppy',
      'SETTING must be one of strict, lossless, got "sloppy"',
    ],
    ['yes', { kind: 'boolean' }, 'Yes', 'SETTING must be true or false, got "yes"'],
    [
      'another scheme, not quoted',
      { kind: 'httpUrl' },
      'ftp://u:pw@h',
      'SETTING must be an http(s) URL',
    ],
    [
      'a host without a scheme',
      { kind: 'publicHttpUrl' },
      'hf-mirror.com',
      'SETTING must be an http(s) URL',
    ],
    [
      'a public URL holding a password, not quoted',
      { kind: 'publicHttpUrl' },
      'https://me:s3cret@mirror.example',
      'SETTING must not hold a user or password: the URL is shown in progress lines and errors',
    ],
    [
      'an unknown zone',
      { kind: 'timeZone' },
      'Mars/Base',
      'SETTING must be an IANA time zone such as Europe/Berlin, got "Mars/Base"',
    ],
  ])('refuses %s, naming the setting', (_case, check, text, problem) => {
    expect(checkSetting('SETTING', text, check)).toEqual({ ok: false, problem });
  });
});

describe('isWithinRange', () => {
  it.each([
    [0, true],
    [5, true],
    [-1, false],
    [6, false],
    [2.5, false],
    ['2', false],
    [Number.NaN, false],
  ])('%j in 0..5: %s', (value, expected) => {
    expect(isWithinRange(value, range)).toBe(expected);
  });
});
