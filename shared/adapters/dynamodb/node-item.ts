import type { NodeRecord } from '../../ports/node-registry';
import { type Item, nullableStringValue, readAttribute } from './attribute-values';
import { keyAttributes, nodeKey } from './item-keys';

/**
 * The node registry item. The node key itself is never stored, only its SHA-256.
 *
 * | attribute   | type   | content                              |
 * |-------------|--------|--------------------------------------|
 * | pk, sk      | S      | `NODE#<nodeId>`, `NODE`              |
 * | record_type | S      | `node`                               |
 * | node_id     | S      | the node id                          |
 * | key_hash    | S      | lowercase hex SHA-256 of the node key |
 * | timezone    | S/NULL | IANA zone                            |
 * | room        | S/NULL |                                      |
 * | name        | S/NULL |                                      |
 * | enabled     | BOOL   |                                      |
 */
export const NodeAttribute = {
  recordType: 'record_type',
  nodeId: 'node_id',
  keyHash: 'key_hash',
  timezone: 'timezone',
  room: 'room',
  name: 'name',
  enabled: 'enabled',
} as const;

const NODE_RECORD_TYPE = 'node';

/** The item for `node`. */
export function nodeToItem(node: NodeRecord): Item {
  return {
    ...keyAttributes(nodeKey(node.nodeId)),
    [NodeAttribute.recordType]: { S: NODE_RECORD_TYPE },
    [NodeAttribute.nodeId]: { S: node.nodeId },
    [NodeAttribute.keyHash]: { S: node.keyHash },
    [NodeAttribute.timezone]: nullableStringValue(node.timezone),
    [NodeAttribute.room]: nullableStringValue(node.room),
    [NodeAttribute.name]: nullableStringValue(node.name),
    [NodeAttribute.enabled]: { BOOL: node.enabled },
  };
}

/** The node stored in `item`; throws `StoredItemMalformedError` on a layout it did not write. */
export function itemToNode(item: Item): NodeRecord {
  return {
    nodeId: readAttribute.string(item, NodeAttribute.nodeId),
    keyHash: readAttribute.string(item, NodeAttribute.keyHash),
    timezone: readAttribute.nullableString(item, NodeAttribute.timezone),
    room: readAttribute.nullableString(item, NodeAttribute.room),
    name: readAttribute.nullableString(item, NodeAttribute.name),
    enabled: readAttribute.boolean(item, NodeAttribute.enabled),
  };
}
