import { describe, expect, it } from 'vitest';
import {
  acknowledgeUtterance,
  DEFAULT_ACKNOWLEDGEMENT,
} from '../../../shared/conversation/acknowledgement/acknowledge-utterance';

describe('acknowledgeUtterance', () => {
  it.each([
    ["What's the forecast for Los Angeles tomorrow?", 'Checking the forecast.'],
    ['will it rain this weekend', 'Checking the forecast.'],
    ['set a timer for five minutes', 'Setting that up.'],
    ['remind me to call mom at 6', 'Setting that up.'],
    ['what is 12 times 7', 'Let me work that out.'],
    ['what is 12*7', 'Let me work that out.'],
    ["what's on my calendar today", 'Checking your calendar.'],
    ['any news today', 'Getting the latest news.'],
    ['play some jazz', 'Getting that ready.'],
    ['turn off the kitchen lights', 'On it.'],
    ['what time is it', 'Let me check.'],
    ['who wrote the odyssey', 'Let me look that up.'],
    ['hello there', DEFAULT_ACKNOWLEDGEMENT],
    ['', DEFAULT_ACKNOWLEDGEMENT],
  ])('answers "%s" with "%s"', (utterance, phrase) => {
    expect(acknowledgeUtterance(utterance)).toBe(phrase);
  });

  it('matches whole words only: "brainstorm" is not rain, "playground" is not play', () => {
    expect(acknowledgeUtterance('brainstorm playground names')).toBe(DEFAULT_ACKNOWLEDGEMENT);
  });

  it('reads only the start of a long utterance, so any input costs the same small work', () => {
    expect(acknowledgeUtterance(`${'la '.repeat(1_000)} weather`)).toBe(DEFAULT_ACKNOWLEDGEMENT);
    expect(acknowledgeUtterance(`weather ${'a'.repeat(100_000)}`)).toBe('Checking the forecast.');
  });
});
