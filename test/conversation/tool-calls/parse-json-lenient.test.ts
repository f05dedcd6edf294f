import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonRepair, parseJsonLenient } from '../../../shared/conversation/tool-calls';
import { readLenientJson } from '../../../shared/conversation/tool-calls/lenient-json-reader';

describe('parseJsonLenient', () => {
  describe('valid JSON is parsed as is', () => {
    it.each([
      ['{"city": "LA"}', { city: 'LA' }],
      ['[1, -2.5e3, true, false, null]', [1, -2500, true, false, null]],
      ['"True"', 'True'],
      ['  {"nested": {"list": []}}  ', { nested: { list: [] } }],
      ['{"text": "it\'s \\"quoted\\" \\u00e9"}', { text: 'it\'s "quoted" é' }],
      ['42', 42],
    ])('%s', (text, expected) => {
      // Act
      const result = parseJsonLenient(text);

      // Assess
      expect(result).toEqual({ ok: true, value: expected, repaired: [] });
    });
  });

  describe('unambiguous damage is repaired and named', () => {
    it.each([
      ['{"city": "LA"', { city: 'LA' }, [JsonRepair.closedTruncated]],
      [
        '{"city": "LA", "days": ["mon", "tue"',
        { city: 'LA', days: ['mon', 'tue'] },
        [JsonRepair.closedTruncated],
      ],
      ['{"on": true', { on: true }, [JsonRepair.closedTruncated]],
      ['{"seconds": 300 ', { seconds: 300 }, [JsonRepair.closedTruncated]],
      ['{"a": {"b": {}', { a: { b: {} } }, [JsonRepair.closedTruncated]],
      ['{"city": "LA",}', { city: 'LA' }, [JsonRepair.trailingComma]],
      ['[1, 2, ]', [1, 2], [JsonRepair.trailingComma]],
      ["{'city': 'LA'}", { city: 'LA' }, [JsonRepair.singleQuotes]],
      [
        "{'quote': 'say \"hi\"', 'it': 'it\\'s'}",
        { quote: 'say "hi"', it: "it's" },
        [JsonRepair.singleQuotes],
      ],
      ['{city: "LA", _days2: 3}', { city: 'LA', _days2: 3 }, [JsonRepair.unquotedKeys]],
      [
        '{"on": True, "off": False, "x": None}',
        { on: true, off: false, x: null },
        [JsonRepair.pythonLiterals],
      ],
      [
        '{"text": "line one\nline two\ttab"}',
        { text: 'line one\nline two\ttab' },
        [JsonRepair.rawControlCharacters],
      ],
      [
        "{'on': True, 'list': [1, 2,]",
        { on: true, list: [1, 2] },
        [
          JsonRepair.singleQuotes,
          JsonRepair.pythonLiterals,
          JsonRepair.trailingComma,
          JsonRepair.closedTruncated,
        ],
      ],
    ])('%s', (text, expected, repairs) => {
      // Act
      const result = parseJsonLenient(text);

      // Assess
      expect(result).toEqual({ ok: true, value: expected, repaired: repairs });
    });
  });

  describe('Python literals are only replaced outside strings', () => {
    it.each([
      ["{'answer': 'True', 'flag': True}", { answer: 'True', flag: true }],
      ["{'None': None}", { None: null }],
    ])('%s', (text, expected) => {
      // Act
      const result = parseJsonLenient(text);

      // Assess
      expect(result.ok && result.value).toEqual(expected);
    });
  });

  describe('ambiguous or unknown damage is refused with a reason', () => {
    it.each([
      ['', 'empty'],
      ['   ', 'empty'],
      ['{"city": "L', 'ends inside a string'],
      ['{"seconds": 30', 'ends inside a number'],
      ['{"city": "LA",', 'ends after a comma'],
      ['{"city":', 'ends where a value is expected'],
      ['{"city"', "expected ':'"],
      ['{', 'ends where a key is expected'],
      ['[', 'ends where a value is expected'],
      ['{"on": tru', "unexpected 'tru'"],
      ['{"city": LA}', "unexpected 'LA'"],
      ['{"n": NaN}', "unexpected 'NaN'"],
      ['{"a": 1 "b": 2}', "expected ',' or '}'"],
      ['{"a": 01}', "expected ',' or '}'"],
      ['{"a": .5}', "unexpected '.'"],
      ['{"a": 1}}', 'unexpected text after the value'],
      ['{"a": 1} trailing words', 'unexpected text after the value'],
      ["{'text': 'it's'}", "expected ',' or '}'"],
      ['{"text": "it\\\'s"}', "invalid escape '\\''"],
      ['{"text": "\\u12"}', 'invalid \\u escape'],
      ['{"a": 1 // comment\n}', "expected ',' or '}'"],
      ['{city-name: 1}', "expected ':'"],
      ['[1,,2]', "unexpected ','"],
      [`${'['.repeat(300)}1${']'.repeat(299)}`, 'nested too deeply'],
    ])('%j', (text, reason) => {
      // Act
      const result = parseJsonLenient(text);

      // Assess
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.reason).toContain(reason);
    });
  });

  it('keeps a "__proto__" key as data, as JSON.parse does', () => {
    // Act
    const result = parseJsonLenient('{"__proto__": {"polluted": true}, "a": 1,}');

    // Assess
    expect(result.ok).toBe(true);
    const value = result.ok ? (result.value as Record<string, unknown>) : {};
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  describe('properties', () => {
    it('valid JSON round-trips unchanged with no repair', () => {
      fc.assert(
        fc.property(fc.json(), (text) => {
          expect(parseJsonLenient(text)).toEqual({
            ok: true,
            value: JSON.parse(text),
            repaired: [],
          });
        }),
      );
    });

    it('the lenient reader alone reads valid JSON like JSON.parse, with no repair', () => {
      fc.assert(
        fc.property(fc.json({ maxDepth: 6 }), (text) => {
          expect(readLenientJson(text)).toEqual({
            ok: true,
            value: JSON.parse(text),
            repaired: [],
          });
        }),
      );
    });

    it('an object of strings cut before its closing brace is closed to the same object', () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.string(), { minKeys: 1 }), (object) => {
          const text = JSON.stringify(object).slice(0, -1);
          expect(parseJsonLenient(text)).toEqual({
            ok: true,
            value: object,
            repaired: [JsonRepair.closedTruncated],
          });
        }),
      );
    });

    it('never throws, whatever the text', () => {
      fc.assert(
        fc.property(
          fc.string({ unit: fc.constantFrom(...'{}[]:,"\'\\ \n0123456789.-eE+truefalsnTFNu') }),
          (text) => {
            const result = parseJsonLenient(text);
            expect(typeof result.ok).toBe('boolean');
          },
        ),
      );
    });
  });
});
