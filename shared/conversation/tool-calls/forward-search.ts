/**
 * `text.indexOf(needle, from)` for callers whose `from` never moves backwards. It remembers the
 * last hit, so a reply full of unclosed tags is scanned in linear rather than quadratic time.
 */
export function forwardSearch(text: string, needle: string): (from: number) => number {
  let found = -2;
  return (from) => {
    // No hit left, or the last hit is still ahead: nothing between `from` and it can match.
    if (found === -1 || found >= from) return found;
    found = text.indexOf(needle, from);
    return found;
  };
}
