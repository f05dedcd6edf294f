import { describe, expect, it } from 'vitest';
import { englishVoiceText } from '../../../shared/adapters/speech/english-voice-text';

describe('englishVoiceText: what the embedded English voice can say', () => {
  it.each([
    ['plain ASCII, kept as it is', 'Set a timer for 10 minutes, at 5:30 p.m. ($2.50)!', null],
    ['accents, composed', 'café naïve résumé', 'cafe naive resume'],
    ['accents, as combining marks', 'cafe\u0301 nai\u0308ve', 'cafe naive'],
    ['a letter under a run of combining marks', `a${'\u0301'.repeat(2_999)}`, 'a'],
    ['fullwidth letters and digits', 'ｈｅｌｌｏ ５０００', 'hello 5000'],
    ['letters English spells', 'Straße, Ærø, Łódź', 'Strasse, AEro, Lodz'],
    ['ligatures and Roman numerals', 'ﬁne ﬀ Ⅻ', 'fine ff XII'],
    ['a vulgar fraction', '½ cup', '1/2 cup'],
    ['typographic quotes and dashes', 'don’t “stop” — now', 'don\'t "stop" - now'],
    ['emoji and other symbols, passed over as Flite does', 'Done 👍 20 °C ✓', null],
  ])('reads %s', (_name, text, expected) => {
    // Act
    const read = englishVoiceText(text);

    // Assess
    expect(read).toEqual({ ok: true, text: expected ?? text });
  });

  it.each([
    ['Chinese', '你好世界', '你', 0],
    ['Japanese after English', 'The answer is 五千円', '五', 14],
    ['Cyrillic', 'Привет мир', 'П', 0],
    ['Arabic behind a right-to-left mark', '\u200fمرحبا', 'م', 1],
    ['Greek', 'Pi is π', 'π', 6],
    ['Hebrew', 'שלום', 'ש', 0],
    ['Devanagari digits', 'Room ४', '४', 5],
    ['a fullwidth digit then a CJK sign', '５０００円', '円', 4],
    ['a letter after an emoji (counted as one character)', '😀 Ω', 'Ω', 2],
  ])('refuses %s, naming the first letter it cannot say', (_name, text, character, index) => {
    // Act
    const read = englishVoiceText(text);

    // Assess
    expect(read).toEqual({ ok: false, character, index });
  });
});
