import { isJsonObject, type JsonObject } from '../types/json-value';
import { formatParameterType, type ParameterType } from '../types/parameter-type';
import { type JsonBaseType, jsonBaseType, scalarFormat } from '../types/type-schema';

const NUMERIC: ReadonlySet<unknown> = new Set(['integer', 'number']);

/**
 * Why a typed parameter and the client's property schema for it disagree on the base type (or on
 * the ISO format of a date type), or null when they agree. integer and number are compatible:
 * the typed parameter decides which one is sent to the model.
 */
export function typeConflict(type: ParameterType, client: JsonObject): string | null {
  const declared = formatParameterType(type);
  if (!typesAgree(jsonBaseType(type), client.type)) {
    return `declared ${declared} but the client schema says type ${JSON.stringify(client.type)}`;
  }
  const ownFormat = type.kind === 'scalar' ? scalarFormat(type.scalar) : undefined;
  if (ownFormat !== undefined && typeof client.format === 'string' && client.format !== ownFormat) {
    return `declared ${declared} (format ${ownFormat}) but the client schema says format ${JSON.stringify(client.format)}`;
  }
  if (type.kind === 'array' && type.items !== null && isJsonObject(client.items)) {
    const itemConflict = typeConflict({ kind: 'scalar', scalar: type.items }, client.items);
    if (itemConflict !== null) return `array items: ${itemConflict}`;
  }
  return null;
}

function typesAgree(base: JsonBaseType, clientType: unknown): boolean {
  if (clientType === undefined) return true;
  const clientTypes: readonly unknown[] = Array.isArray(clientType) ? clientType : [clientType];
  if (clientTypes.includes(base)) return true;
  return NUMERIC.has(base) && clientTypes.some((candidate) => NUMERIC.has(candidate));
}
