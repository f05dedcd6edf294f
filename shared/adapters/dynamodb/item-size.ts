import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Item } from './attribute-values';

/**
 * What DynamoDB counts against its 400 KB item limit, following its published rules: attribute
 * names plus values; strings in UTF-8 bytes; binaries in bytes; numbers at their 21-byte maximum
 * (an upper bound, so the estimate never undercounts); lists and maps 3 bytes plus 1 per element.
 */
export function itemSizeBytes(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    size += Buffer.byteLength(name, 'utf8') + attributeValueSizeBytes(value);
  }
  return size;
}

const NUMBER_MAXIMUM_BYTES = 21;
const CONTAINER_OVERHEAD_BYTES = 3;

function attributeValueSizeBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S, 'utf8');
  if (value.N !== undefined) return NUMBER_MAXIMUM_BYTES;
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.L !== undefined) {
    return value.L.reduce(
      (size, element) => size + 1 + attributeValueSizeBytes(element),
      CONTAINER_OVERHEAD_BYTES,
    );
  }
  if (value.M !== undefined)
    return CONTAINER_OVERHEAD_BYTES + itemSizeBytes(value.M) + countOf(value.M);
  // Sets are never written by this adapter; count them generously rather than fail.
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function countOf(map: Item): number {
  return Object.keys(map).length;
}
