import addFormats from 'ajv-formats';
import type { FormatName } from 'ajv-formats/dist/formats';
import { describe, expect, it } from 'vitest';
import { FORMAT_MAX_LENGTHS } from '../../../shared/params/formats/bounded-formats';
import { createSchemaCompiler } from '../../../shared/params/formats/schema-compiler';
import { clientTool, compileOrThrow } from '../support/command-sets';

// Formats of numbers, and those that accept anything: no string check to bound.
const NOT_STRING_CHECKS = ['int32', 'int64', 'float', 'double', 'password', 'binary'];
// Every format ajv-formats knows (its `formats` option lists them).
const AJV_FORMATS: readonly FormatName[] = [
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
];

const VALID: Readonly<Record<string, string>> = {
  date: '2026-01-17',
  time: '05:00:00Z',
  'date-time': '2026-01-17T05:00:00Z',
  'iso-time': '05:00:00',
  'iso-date-time': '2026-01-17T05:00:00',
  duration: 'PT90M',
  uri: 'https://example.com/a?b=c',
  'uri-reference': '/a/b',
  'uri-template': '/a/{b}',
  url: 'https://example.com/a',
  email: 'a@example.com',
  hostname: 'example.com',
  ipv4: '192.168.1.1',
  ipv6: '::1',
  regex: '^a+$',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  'json-pointer': '/a/b',
  'json-pointer-uri-fragment': '#/a',
  'relative-json-pointer': '1/a',
  byte: 'aGVsbG8=',
};

describe('row 10: every string format is bounded by length', () => {
  it('every string format ajv-formats knows has a length bound', () => {
    // Act
    const unbounded = AJV_FORMATS.filter(
      (name) => !NOT_STRING_CHECKS.includes(name) && FORMAT_MAX_LENGTHS[name] === undefined,
    );

    // Assess
    expect(unbounded).toEqual([]);
    expect(addFormats.get('url')).toBeDefined();
  });

  it.each(Object.entries(FORMAT_MAX_LENGTHS))(
    '%s: valid within %i characters, refused beyond',
    (name, maxLength) => {
      // Arrange
      const validate = createSchemaCompiler().compile({ type: 'string', format: name });
      const valid = VALID[name] ?? '';
      const padded =
        name === 'byte' ? 'A'.repeat(maxLength + 4) : `${valid}${'a'.repeat(maxLength)}`;

      // Act, Assess
      expect(validate(valid)).toBe(true);
      expect(validate(padded)).toBe(false);
    },
  );

  it('the ajv-formats url check on 8 KiB (the argument limit) of http://:::: is an invalid_format retry', () => {
    // Arrange
    const set = compileOrThrow({
      client_tools: [
        clientTool('probe', {
          type: 'object',
          properties: { u: { type: 'string', format: 'url' } },
        }),
      ],
    });

    // Act
    const check = set.check(
      { name: 'probe', arguments: { u: `http://${'::'.repeat(4_000)}` } },
      'lossless',
    );

    // Assess
    expect(check.ok ? [] : check.issues.map((issue) => [issue.code, issue.parameter])).toEqual([
      ['invalid_format', 'u'],
    ]);
  });
});

describe('a format’s limit counts characters as code points, as the schemas’ maxLength does', () => {
  const emoji = '\u{1F600}';
  it.each([
    ['uri-template', (count: number) => `/${emoji.repeat(count - 1)}`],
    ['regex', (count: number) => emoji.repeat(count)],
  ])(
    '%s: valid at its limit in emoji (two UTF-16 units each), refused one past it',
    (name, make) => {
      // Arrange
      const validate = createSchemaCompiler().compile({ type: 'string', format: name });
      const limit = FORMAT_MAX_LENGTHS[name] ?? 0;

      // Act, Assess
      expect(validate(make(limit))).toBe(true);
      expect(validate(make(limit + 1))).toBe(false);
      expect(validate(`${make(limit - 1)}a`)).toBe(true);
    },
  );
});
