import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { StoredItemMalformedError } from './stored-item-malformed-error';
import { TABLE_KEYS } from './table';

/** A DynamoDB item in the low-level client's terms. */
export type Item = Record<string, AttributeValue>;

/** `null` is stored as DynamoDB's NULL type so every attribute is always present. */
export function nullableStringValue(value: string | null): AttributeValue {
  return value === null ? { NULL: true } : { S: value };
}

export function numberValue(value: number): AttributeValue {
  return { N: String(value) };
}

/**
 * Typed reads of one attribute. Each throws `StoredItemMalformedError` when the attribute is
 * missing or of another type, naming the item and the attribute.
 */
export const readAttribute = {
  string(item: Item, name: string): string {
    const value = item[name]?.S;
    if (value === undefined) throw malformed(item, name, 'is not a string');
    return value;
  },
  nullableString(item: Item, name: string): string | null {
    const attribute = item[name];
    if (attribute?.NULL === true) return null;
    if (attribute?.S === undefined) throw malformed(item, name, 'is neither a string nor null');
    return attribute.S;
  },
  number(item: Item, name: string): number {
    const text = item[name]?.N;
    const value = text === undefined ? Number.NaN : Number(text);
    if (!Number.isFinite(value)) throw malformed(item, name, 'is not a number');
    return value;
  },
  boolean(item: Item, name: string): boolean {
    const value = item[name]?.BOOL;
    if (value === undefined) throw malformed(item, name, 'is not a boolean');
    return value;
  },
  binary(item: Item, name: string): Uint8Array {
    const value = item[name]?.B;
    if (value === undefined) throw malformed(item, name, 'is not binary');
    return value;
  },
  list(item: Item, name: string): readonly AttributeValue[] {
    const value = item[name]?.L;
    if (value === undefined) throw malformed(item, name, 'is not a list');
    return value;
  },
};

/** The error for an attribute that is present but unusable, named with the item's key. */
export function malformed(item: Item, attribute: string, reason: string, cause?: unknown) {
  const partitionKey = item[TABLE_KEYS.partitionKey.name]?.S ?? '?';
  const sortKey = item[TABLE_KEYS.sortKey.name]?.S ?? '?';
  const options = cause === undefined ? undefined : { cause };
  return new StoredItemMalformedError(partitionKey, sortKey, attribute, reason, options);
}
