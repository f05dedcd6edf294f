/**
 * The short phrase a node speaks while the real answer is prepared ("Checking the forecast.").
 * Chosen by topic from the words of the utterance, with no model call: the node waits at most
 * 5 s for it and it must never fail, so it costs a few regular-expression tests (linear: word
 * alternations only) whatever the model or the network does.
 */

interface Topic {
  readonly words: RegExp;
  readonly phrase: string;
}

/** The first topic whose words occur wins, so the specific ones come before the general ones. */
const TOPICS: readonly Topic[] = [
  {
    words:
      /\b(?:weather|forecast|rain(?:ing|y)?|snow(?:ing)?|temperature|sunny|umbrella|humid(?:ity)?|windy?|hot|cold)\b/i,
    phrase: 'Checking the forecast.',
  },
  {
    words: /\b(?:timers?|alarms?|remind(?:er|ers)?|wake me|countdown)\b/i,
    phrase: 'Setting that up.',
  },
  {
    words:
      /\b(?:calculate|plus|minus|times|divided|multiplied|multiply|percent|square root|sum of)\b|\d\s*[-+*/x×÷]\s*\d/i,
    phrase: 'Let me work that out.',
  },
  {
    words: /\b(?:calendar|schedule|meetings?|appointments?|agenda|events?)\b/i,
    phrase: 'Checking your calendar.',
  },
  {
    words: /\b(?:news|headlines)\b/i,
    phrase: 'Getting the latest news.',
  },
  {
    words: /\b(?:play|music|songs?|album|playlist|artist|radio|podcast)\b/i,
    phrase: 'Getting that ready.',
  },
  {
    words:
      /\b(?:lights?|lamps?|thermostat|heating|lock|unlock|doors?|fan|turn (?:on|off)|switch|dim|brighten|volume|louder|quieter|pause|stop|skip)\b/i,
    phrase: 'On it.',
  },
  {
    words: /\b(?:what time|what day|what's the date|what is the date|today's date)\b/i,
    phrase: 'Let me check.',
  },
  {
    words: /\b(?:who|what|when|where|why|how|search|look up|find|tell me)\b/i,
    phrase: 'Let me look that up.',
  },
];

/** What is said when no topic matches. */
export const DEFAULT_ACKNOWLEDGEMENT = 'One moment.';

/** Only the start of a long utterance is read: the topic is named early, and the work stays small. */
const READ_CHARACTERS = 500;

/** A short, natural acknowledgement of `utterance`, the same every time for the same words. */
export function acknowledgeUtterance(utterance: string): string {
  const text = utterance.slice(0, READ_CHARACTERS);
  return TOPICS.find((topic) => topic.words.test(text))?.phrase ?? DEFAULT_ACKNOWLEDGEMENT;
}
