import type { ToolDefinition } from '../../chat/chat-message';

const CALL_OPEN = '<tool_call>';
const CALL_CLOSE = '</tool_call>';
const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
/** What follows `<tool_call>` up to the name, as Qwen3's template writes a call. */
const BEFORE_NAME = '\n{"name": "';
const AFTER_NAME = ', "arguments": {';
const AFTER_ARGUMENTS = '}\n</tool_call>';
const WHITESPACE = /\s/;
const NUMBER_START = /[-0-9]/;
const NUMBER_CHAR = /[-+0-9.eE]/;

interface CallTool {
  readonly name: string;
  /** The required properties' keys, in the schema's declared order. */
  readonly required: readonly string[];
  /** Every declared property: with `additionalProperties: false`, the object closes after them. */
  readonly declared: readonly string[];
  readonly closed: boolean;
}

/** A step of reading the model's text against fixed text: all of it read, or where it ran out. */
type Reading = { readonly kind: 'read' } | { readonly kind: 'ended'; readonly rest: string };
const READ: Reading = { kind: 'read' };
/** The model wrote something the format does not determine from here: nothing is forced. */
const NOTHING = '';

/**
 * Jump-forward decoding's plan for Qwen's (and Hermes') call block: given the reply written so
 * far, the text that is determined next, which the adapter then evaluates as one batch instead
 * of one generation step per token. Only text the model has committed to is forced: it must
 * have opened `<tool_call>` itself (or the prompt opened it for a required call), and the name
 * is completed only once what it wrote is a prefix of exactly one of the request's tools. With
 * the tool's JSON Schema, its required properties' keys are forced in the schema's declared
 * order (as xgrammar and outlines order them; a JSON object's key order carries no meaning), each
 * as soon as the object opens or the value before it ends; optional properties are the model's
 * to write after them. A value is always the model's. The arguments' closing brace is forced
 * only when the schema allows nothing more (`additionalProperties: false`, all written); after
 * it, `}\n</tool_call>` is.
 *
 * The forced text never ends with whitespace or an opening brace: Qwen's pre-tokenizer joins a
 * space, or a `{`, with the characters after it (` "`, ` 1`, `{"`, `{}}`), so the model writes
 * those itself in the tokens it would have written anyway (see the 2026-11-26 jump-forward note).
 * Pure: no I/O; `forcedAfter` reads the text once from the last call's opening.
 */
export class QwenCallPlanner {
  readonly #tools: ReadonlyMap<string, CallTool>;

  constructor(tools: readonly ToolDefinition[]) {
    const byName = new Map<string, CallTool>();
    for (const tool of tools) {
      const name = tool.function.name;
      // A name that JSON would escape is not written as its plain characters: left to the model.
      if (JSON.stringify(name) !== `"${name}"`) continue;
      byName.set(name, callTool(name, tool.function.parameters));
    }
    this.#tools = byName;
  }

  /** The text determined after `text` (the reply so far, thinking included): '' if none. */
  forcedAfter(text: string): string {
    const call = openCallText(text);
    if (call === null) return NOTHING;
    const forced = this.#forced(new Cursor(call));
    return heldBack(forced);
  }

  #forced(cursor: Cursor): string {
    const opening = cursor.readFixed(BEFORE_NAME);
    if (opening === null) return NOTHING;
    if (opening.kind === 'ended') return opening.rest + this.#nameFrom('');
    const name = cursor.readNameCharacters();
    if (!name.closed) return this.#nameFrom(name.text);
    const tool = this.#tools.get(name.text);
    if (tool === undefined) return NOTHING;
    const arguments_ = cursor.readFixed(AFTER_NAME);
    if (arguments_ === null) return NOTHING;
    if (arguments_.kind === 'ended') return arguments_.rest + argumentsFrom(tool, []);
    const written: string[] = [];
    for (;;) {
      const first = written.length === 0;
      const next = nextRequired(tool, written);
      if (next !== null) {
        const key = cursor.readFixed(`${first ? '' : ', '}"${next}":`);
        if (key?.kind === 'ended') return key.rest;
        if (key?.kind === 'read') {
          const value = cursor.readValue();
          if (value !== 'read') return NOTHING;
          written.push(next);
          continue;
        }
      }
      // Not a forced key: the model's own (an optional property, or keys in another order).
      cursor.skipWhitespace();
      if (cursor.atEnd()) return argumentsFrom(tool, written);
      if (cursor.take('}')) break;
      if (!first && !cursor.take(',')) return NOTHING;
      cursor.skipWhitespace();
      if (cursor.atEnd()) return NOTHING;
      const key = cursor.readString();
      if (key === null) return NOTHING;
      cursor.skipWhitespace();
      if (cursor.atEnd()) return ':';
      if (!cursor.take(':')) return NOTHING;
      if (cursor.readValue() !== 'read') return NOTHING;
      written.push(key);
    }
    const closing = cursor.readFixed(AFTER_ARGUMENTS);
    return closing?.kind === 'ended' ? closing.rest : NOTHING;
  }

  /** After `name` (not yet closed): the rest of the one tool it begins, and what follows it. */
  #nameFrom(name: string): string {
    let only: CallTool | null = null;
    for (const tool of this.#tools.values()) {
      if (!tool.name.startsWith(name)) continue;
      if (only !== null) return NOTHING;
      only = tool;
    }
    if (only === null) return NOTHING;
    return `${only.name.slice(name.length)}"${AFTER_NAME}${argumentsFrom(only, [])}`;
  }
}

/** What is determined in the arguments' object after the keys `written` and their values. */
function argumentsFrom(tool: CallTool, written: readonly string[]): string {
  const next = nextRequired(tool, written);
  const separator = written.length === 0 ? '' : ', ';
  if (next !== null) return `${separator}"${next}":`;
  const complete = tool.closed && tool.declared.every((key) => written.includes(key));
  return complete ? `}${AFTER_ARGUMENTS}` : NOTHING;
}

const nextRequired = (tool: CallTool, written: readonly string[]): string | null =>
  tool.required.find((key) => !written.includes(key)) ?? null;

function callTool(name: string, parameters: Readonly<Record<string, unknown>>): CallTool {
  const properties = parameters.properties;
  const declared =
    typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  const required = Array.isArray(parameters.required)
    ? declared.filter(
        (key) =>
          (parameters.required as unknown[]).includes(key) && JSON.stringify(key) === `"${key}"`,
      )
    : [];
  return { name, required, declared, closed: parameters.additionalProperties === false };
}

/** The text of the last call block, from after its `<tool_call>`, if it is open; else null. */
function openCallText(text: string): string | null {
  const thinkOpen = text.lastIndexOf(THINK_OPEN);
  const thinkClose = text.lastIndexOf(THINK_CLOSE);
  // Inside thinking the model may write anything, a call's text included.
  if (thinkOpen > thinkClose) return null;
  const open = text.lastIndexOf(CALL_OPEN);
  if (open < 0 || open < thinkClose || text.lastIndexOf(CALL_CLOSE) > open) return null;
  return text.slice(open + CALL_OPEN.length);
}

/** Forced text ends before a trailing `{` and whitespace: the model joins them with what follows. */
function heldBack(forced: string): string {
  let end = forced.length;
  while (end > 0 && (forced[end - 1] === '{' || WHITESPACE.test(forced[end - 1] ?? ''))) {
    end -= 1;
  }
  return forced.slice(0, end);
}

/** The model's text of one call block, read from the left with JSON's freedom of whitespace. */
class Cursor {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  atEnd(): boolean {
    return this.#at >= this.#text.length;
  }

  take(character: string): boolean {
    if (this.#text[this.#at] !== character) return false;
    this.#at += 1;
    return true;
  }

  skipWhitespace(): boolean {
    const from = this.#at;
    while (WHITESPACE.test(this.#text[this.#at] ?? '')) this.#at += 1;
    return this.#at > from;
  }

  /**
   * Reads `fixed` (whitespace in it or between JSON's tokens may differ): all of it, or the text
   * ends within it (the rest is then determined), or null when the model wrote something else
   * (the cursor then stays where it was).
   */
  readFixed(fixed: string): Reading | null {
    const from = this.#at;
    let index = 0;
    let inString = false;
    while (index < fixed.length) {
      if (inString) {
        if (this.atEnd()) return { kind: 'ended', rest: fixed.slice(index) };
      } else {
        const spaced = this.skipWhitespace();
        const spaceStart = index;
        while (WHITESPACE.test(fixed[index] ?? '')) index += 1;
        if (index >= fixed.length) break;
        // The model's own whitespace stands for the fixed text's; none written: the fixed one.
        if (this.atEnd()) return { kind: 'ended', rest: fixed.slice(spaced ? index : spaceStart) };
      }
      const character = fixed[index];
      if (this.#text[this.#at] !== character) {
        this.#at = from;
        return null;
      }
      if (character === '"') inString = !inString;
      this.#at += 1;
      index += 1;
    }
    return READ;
  }

  /** A tool name's characters up to its closing quote (names with escapes are never forced). */
  readNameCharacters(): { readonly text: string; readonly closed: boolean } {
    const from = this.#at;
    while (!this.atEnd() && this.#text[this.#at] !== '"') this.#at += 1;
    const text = this.#text.slice(from, this.#at);
    return { text, closed: this.take('"') };
  }

  /** A complete JSON string (a key), or null when it is not one or not finished. */
  readString(): string | null {
    if (this.#text[this.#at] !== '"') return null;
    const end = stringEnd(this.#text, this.#at);
    if (end === null) return null;
    try {
      const value = JSON.parse(this.#text.slice(this.#at, end)) as string;
      this.#at = end;
      return value;
    } catch {
      return null;
    }
  }

  /**
   * One JSON value after optional whitespace: `read` once it is known to have ended (a number
   * only when a character after it ends it), `open` if the text ends within it, `other` if it
   * is not JSON. The value is the model's own: this only finds where it ends.
   */
  readValue(): 'read' | 'open' | 'other' {
    this.skipWhitespace();
    const text = this.#text;
    const start = this.#at;
    const first = text[start];
    if (first === undefined) return 'open';
    let end: number | null;
    if (first === '"') end = stringEnd(text, start);
    else if (first === '{' || first === '[') end = nestedEnd(text, start);
    else if (NUMBER_START.test(first)) {
      let index = start;
      while (NUMBER_CHAR.test(text[index] ?? '')) index += 1;
      end = index < text.length ? index : null;
    } else {
      const word = ['true', 'false', 'null'].find((literal) =>
        literal.startsWith(text.slice(start, start + literal.length)),
      );
      if (word === undefined) return 'other';
      end = text.startsWith(word, start) ? start + word.length : null;
    }
    if (end === null) return 'open';
    this.#at = end;
    return 'read';
  }
}

/** The index after the string opening at `start`, or null when it is not closed yet. */
function stringEnd(text: string, start: number): number | null {
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === '"') return index + 1;
  }
  return null;
}

/** The index after the object or array opening at `start`, or null when it is not closed yet. */
function nestedEnd(text: string, start: number): number | null {
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      const end = stringEnd(text, index);
      if (end === null) return null;
      index = end - 1;
    } else if (character === '{' || character === '[') depth += 1;
    else if (character === '}' || character === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return null;
}
