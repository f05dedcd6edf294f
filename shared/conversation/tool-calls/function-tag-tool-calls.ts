import type { ParsedArguments } from './extracted-reply';
import { forwardSearch } from './forward-search';
import { parseToolArguments } from './parse-tool-arguments';
import { NOT_READ } from './reply-limits';
import type { TextToolCallSpan } from './tool-call-candidate';

const functionTag = /<function=([A-Za-z0-9_.-]{1,64})>/g;
const functionClose = '</function>';
const parameterOpen = '<parameter=';
const parameterClose = '</parameter>';

/**
 * Finds `<function=name>{...}</function>` (Llama 3.1) and `<function=name><parameter=key>value
 * </parameter></function>` (Qwen3-Coder, whose values stay strings for the normalizer). A missing
 * `</function>` ends the body at the next `<function=` or the end of the text. Bodies past the
 * first `maxCalls` are not read (their calls are dropped unread): the scan stays linear.
 */
export function findFunctionTagToolCalls(
  text: string,
  maxCalls = Number.POSITIVE_INFINITY,
): TextToolCallSpan[] {
  const findClose = forwardSearch(text, functionClose);
  const findOpen = forwardSearch(text, '<function=');
  const spans: TextToolCallSpan[] = [];
  functionTag.lastIndex = 0;
  for (let tag = functionTag.exec(text); tag !== null; tag = functionTag.exec(text)) {
    const bodyStart = tag.index + tag[0].length;
    const close = findClose(bodyStart);
    const nextOpen = findOpen(bodyStart);
    const closed = close !== -1 && (nextOpen === -1 || close < nextOpen);
    const bodyEnd = closed ? close : nextOpen === -1 ? text.length : nextOpen;
    const end = closed ? close + functionClose.length : bodyEnd;
    const name = tag[1] ?? '';
    const read = spans.length < maxCalls;
    const args = read ? readFunctionBody(text.slice(bodyStart, bodyEnd)) : NOT_READ;
    const call = { id: null, name, arguments: args };
    spans.push({ start: tag.index, end, calls: [call] });
    functionTag.lastIndex = end;
  }
  return spans;
}

function readFunctionBody(body: string): ParsedArguments {
  const trimmed = body.trim();
  return trimmed.startsWith(parameterOpen)
    ? readParameterTags(trimmed)
    : parseToolArguments(trimmed);
}

function readParameterTags(body: string): ParsedArguments {
  const value: Record<string, unknown> = {};
  let position = 0;
  while (position < body.length) {
    if (!body.startsWith(parameterOpen, position)) {
      return { ok: false, raw: body, reason: `expected <parameter=...> at position ${position}` };
    }
    const nameEnd = body.indexOf('>', position);
    const close = body.indexOf(parameterClose, nameEnd);
    // An unclosed parameter was cut off: its value may be incomplete.
    if (nameEnd === -1 || close === -1) {
      return { ok: false, raw: body, reason: 'a <parameter=...> tag is not closed' };
    }
    const key = body.slice(position + parameterOpen.length, nameEnd).trim();
    Object.defineProperty(value, key, {
      value: withoutFramingNewlines(body.slice(nameEnd + 1, close)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    position = skipWhitespace(body, close + parameterClose.length);
  }
  return { ok: true, value, repaired: [] };
}

/** The format puts a value on its own lines; one line break either side is framing, not value. */
function withoutFramingNewlines(value: string): string {
  const start = value.startsWith('\n') ? 1 : 0;
  const end = value.endsWith('\n') && value.length > start ? value.length - 1 : value.length;
  return value.slice(start, end);
}

function skipWhitespace(text: string, from: number): number {
  let position = from;
  while (position < text.length && /\s/.test(text[position] ?? '')) position += 1;
  return position;
}
