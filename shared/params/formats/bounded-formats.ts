import type Ajv from 'ajv';
import type { Format } from 'ajv';
import addFormats from 'ajv-formats';
import type { FormatName } from 'ajv-formats/dist/formats';
import { withinCharacters } from '../limits/character-count';
import { ISO_FORMATS } from './iso-formats';

/**
 * The longest string each string format checks; a longer one is not of that format. ajv-formats'
 * checks are JavaScript regular expressions, some super-linear (`url` took 747 ms on 16 KiB of
 * `http://::::...`, 86 ms on 8 KiB): bounded by length, each one costs at most about 2 ms, so
 * its cost is a constant the command set's cost bound can count (cost-bound.ts). The lengths
 * are what the formats allow in practice: 254 for an address (RFC 5321), 253 for a host name,
 * 2,048 for a URL (the de-facto limit of browsers and servers).
 */
export const FORMAT_MAX_LENGTHS: Readonly<Record<string, number>> = {
  date: 64,
  time: 64,
  'date-time': 64,
  'iso-time': 64,
  'iso-date-time': 64,
  duration: 64,
  uri: 2_048,
  'uri-reference': 2_048,
  'uri-template': 2_048,
  url: 2_048,
  email: 254,
  hostname: 253,
  ipv4: 15,
  ipv6: 45,
  regex: 256,
  uuid: 36,
  'json-pointer': 2_048,
  'json-pointer-uri-fragment': 2_048,
  'relative-json-pointer': 2_048,
  byte: 16_384,
};

/**
 * Registers every string format on `ajv`, each refusing strings over its FORMAT_MAX_LENGTHS
 * before its check runs: ajv-formats' own, then ours (iso-formats.ts) under the names they share.
 * A format not in the table (numbers: int32, double...; `password`, `binary`) is ajv-formats' as is.
 */
export function addBoundedFormats(ajv: Ajv): void {
  addFormats(ajv);
  for (const [name, maxLength] of Object.entries(FORMAT_MAX_LENGTHS)) {
    const check = ISO_FORMATS[name] ?? testOf(addFormats.get(name as FormatName));
    if (check === null) continue;
    ajv.addFormat(name, {
      type: 'string',
      validate: (text: string) => withinCharacters(text, maxLength) && check(text),
    });
  }
}

function testOf(format: Format): ((text: string) => boolean) | null {
  if (format === true) return () => true;
  if (format instanceof RegExp) return (text) => format.test(text);
  if (typeof format === 'function') return (text) => format(text) === true;
  if (typeof format === 'object' && format !== null && 'validate' in format) {
    if (format.type !== undefined && format.type !== 'string') return null;
    return testOf(format.validate as Format);
  }
  return null;
}
