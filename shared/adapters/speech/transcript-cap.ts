/**
 * A recognizer's text, trimmed and cut to `maxCharacters` (UTF-16 code units, as JSON Schema's
 * maxLength counts them) without splitting a surrogate pair. A model that loops on a window of
 * noise can write a few thousand characters; a transcript longer than an utterance may be is no
 * use to the node, which sends it on as voice/command's `voice_command`.
 */
export function capTranscript(text: string, maxCharacters: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxCharacters) return trimmed;
  let end = maxCharacters;
  const last = trimmed.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return trimmed.slice(0, end).trimEnd();
}
