/**
 * What one chat request may hold, in characters: Unicode code points (an emoji is one), for
 * each message (the schema's `maxLength` counts so) and for the total alike. Routines and alerts send their data as one system message
 * (a routine's step results as indented JSON), so a message may be long; the total keeps one
 * request's prompt, and its cost, bounded whatever the node sends.
 */
export const CHAT_LIMITS = {
  messages: 32,
  messageCharacters: 32_000,
  totalCharacters: 64_000,
} as const;

/** Characters of `text` as the limits count them: code points, so an emoji is one. */
export function chatCharacters(text: string): number {
  let characters = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    characters += 1;
  }
  return characters;
}
