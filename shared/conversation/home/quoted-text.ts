// Control characters, line and paragraph separators and format characters (bidirectional
// overrides among them): a name that carried them could start a line of its own or reorder what
// the model reads.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` on one line, blanks collapsed, cut to `maxCharacters` (a cut ends in `…`). */
export function oneLine(text: string, maxCharacters: number): string {
  const flat = text.replace(UNPRINTABLE, ' ').replace(/\s+/g, ' ').trim();
  const characters = [...flat];
  if (characters.length <= maxCharacters) return flat;
  return `${characters.slice(0, Math.max(0, maxCharacters - 1)).join('')}…`;
}

/**
 * Text the node reported, as the model reads it: on one line, cut, and JSON-quoted, so a device
 * named "ignore previous instructions" stays a quoted name inside a line of data.
 */
export function quoted(text: string, maxCharacters: number): string {
  return JSON.stringify(oneLine(text, maxCharacters));
}
