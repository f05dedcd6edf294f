import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { itemSizeBytes } from '../../../shared/adapters/dynamodb/item-size';

describe('itemSizeBytes', () => {
  it.each<{ description: string; value: AttributeValue; expected: number }>([
    { description: 'an ASCII string', value: { S: 'abc' }, expected: 1 + 3 },
    { description: 'a string in UTF-8 bytes', value: { S: 'é☕' }, expected: 1 + 2 + 3 },
    { description: 'a number at its maximum', value: { N: '1' }, expected: 1 + 21 },
    { description: 'a binary', value: { B: new Uint8Array(10) }, expected: 1 + 10 },
    { description: 'a boolean', value: { BOOL: true }, expected: 1 + 1 },
    { description: 'a null', value: { NULL: true }, expected: 1 + 1 },
    {
      description: 'a list',
      value: { L: [{ S: 'ab' }, { BOOL: false }] },
      expected: 1 + 3 + 3 + 2,
    },
    { description: 'a map', value: { M: { id: { S: 'x' } } }, expected: 1 + 3 + 1 + 2 + 1 },
  ])('counts $description', ({ value, expected }) => {
    const size = itemSizeBytes({ a: value });

    expect(size).toBe(expected);
  });

  it('counts attribute names in UTF-8 bytes', () => {
    const size = itemSizeBytes({ naïve: { S: '' }, b: { S: 'x' } });

    expect(size).toBe(6 + 2);
  });
});
