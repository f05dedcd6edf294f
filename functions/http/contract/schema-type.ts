import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The TypeScript type of what `Schema` accepts, derived at compile time (json-schema-to-ts is a
 * devDependency used for types only: nothing of it reaches a bundle). Two changes to its
 * `FromSchema`: every level is read-only (the edge reads bodies, the core takes read-only
 * arrays), and an object keeps only its named fields. Our schemas leave `additionalProperties`
 * open, so `FromSchema` adds `[x: string]: unknown` everywhere, which would let a misspelled
 * field compile; an object with no named field stays a read-only record. A conditional type, so
 * a generic `Schema` defers it: expanding `FromSchema` of the `JSONSchema` constraint itself is
 * too deep for the compiler (TS2589).
 */
export type SchemaType<Schema> = Schema extends JSONSchema
  ? KnownFields<FromSchema<Schema>>
  : never;

type KnownFields<Value> = Value extends readonly (infer Item)[]
  ? readonly KnownFields<Item>[]
  : Value extends object
    ? keyof NamedFields<Value> extends never
      ? Readonly<Value>
      : { readonly [Key in keyof NamedFields<Value>]: KnownFields<NamedFields<Value>[Key]> }
    : Value;

/** `Value` without its index signature (`keyof` alone would merge the names into `string`). */
type NamedFields<Value> = { [Key in keyof Value as string extends Key ? never : Key]: Value[Key] };
