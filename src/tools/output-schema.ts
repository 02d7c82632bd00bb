/**
 * The `outputSchema`s tools declare (MCP spec 2025-06-18 and later, "Tools" → Output Schema):
 * JSON Schema 2020-12 objects (the spec's default dialect when `$schema` is absent) describing a
 * tool's `structuredContent`, so a client can validate it and program against its fields.
 *
 * Every agent pays for tools/list in every session, so a schema names only the fields a client
 * program relies on — identity (`path`, `id`), paging (`next_cursor`, `has_more`), the write
 * guard (`hash`) and states — with their types, and lists as `required` only what every success
 * path returns. Objects stay open (no `additionalProperties: false`): remarks such as `note` and
 * later additions do not break a client that validates. Which tools declare one, and why, is in
 * docs/tools.md.
 */

/** A JSON Schema (2020-12) as sent in tools/list: plain JSON. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** `{type: "string"}`. */
export const STRING: JsonSchema = { type: 'string' };
/** `{type: "integer"}`. */
export const INTEGER: JsonSchema = { type: 'integer' };
/** `{type: "number"}`. */
export const NUMBER: JsonSchema = { type: 'number' };
/** `{type: "boolean"}`. */
export const BOOLEAN: JsonSchema = { type: 'boolean' };
/** An array of strings. */
export const STRINGS: JsonSchema = { type: 'array', items: STRING };

/**
 * An open object schema.
 * @param properties the declared fields; @param required those every success path returns
 * @throws Error when `required` names a field `properties` does not declare (a schema bug).
 */
export function objectOf(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  const missing = required.filter((name) => !(name in properties));
  if (missing.length > 0)
    throw new Error(`objectOf: required field(s) ${missing.join(', ')} are not declared; declare them in properties.`);
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

/** An array whose items all match `items`. */
export function arrayOf(items: JsonSchema): JsonSchema {
  return { type: 'array', items };
}

/**
 * What read_note and each note of read_notes return about a note besides its text (see
 * read-note.ts `noteHeader`): the declared part of it, required fields included.
 */
export const NOTE_HEADER_FIELDS: Record<string, JsonSchema> = {
  path: STRING,
  id: STRING,
  hash: STRING,
  body: STRING,
  has_more: BOOLEAN,
};

/** The note-header fields every note read returns. */
export const NOTE_HEADER_REQUIRED = ['path', 'id', 'hash', 'has_more'] as const;
