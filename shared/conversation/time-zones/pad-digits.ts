/** `value` in at least `width` digits, zero-filled, with a minus sign in front when negative. */
export const padDigits = (value: number, width = 2): string =>
  value < 0 ? `-${String(-value).padStart(width, '0')}` : String(value).padStart(width, '0');
