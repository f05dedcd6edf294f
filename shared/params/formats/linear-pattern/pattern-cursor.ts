/** Thrown inside the parser only; `parsePattern` turns it into a value. */
export class UnsupportedPattern {
  constructor(readonly reason: string) {}
}

/** A position in a pattern's code points, read one at a time. */
export class PatternCursor {
  #position = 0;

  constructor(private readonly characters: readonly string[]) {}

  done(): boolean {
    return this.#position >= this.characters.length;
  }

  peek(offset = 0): string | undefined {
    return this.characters[this.#position + offset];
  }

  next(): string {
    const character = this.characters[this.#position];
    if (character === undefined) throw new UnsupportedPattern('the pattern ends too early');
    this.#position += 1;
    return character;
  }

  expect(character: string): void {
    if (this.next() !== character) throw new UnsupportedPattern(`expected ${character}`);
  }

  /** Where the cursor is, to come back to after reading ahead. */
  get position(): number {
    return this.#position;
  }

  set position(position: number) {
    this.#position = position;
  }

  digits(): number {
    let text = '';
    while (/[0-9]/.test(this.peek() ?? '')) text += this.next();
    if (text === '') throw new UnsupportedPattern('a quantifier needs a number');
    return Number(text);
  }

  hex(length: number): number {
    let text = '';
    for (let index = 0; index < length; index += 1) text += this.next();
    if (!/^[0-9a-fA-F]+$/.test(text)) throw new UnsupportedPattern('a bad hexadecimal escape');
    return Number.parseInt(text, 16);
  }
}

export function codePoint(character: string): number {
  return character.codePointAt(0) ?? 0;
}
