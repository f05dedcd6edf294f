import { describe, expect, it } from 'vitest';
import { samplingFor } from '../../../shared/adapters/embedded-model/embedded-sampling';

describe('samplingFor: LLM_TEMPERATURE', () => {
  it.each([
    [null, 'off', { temperature: 0 }],
    [0, 'off', { temperature: 0 }],
    [0.7, 'off', { temperature: 0.7, topP: 0.8, topK: 20, minP: 0 }],
    [null, 'on', { temperature: 0.6, topP: 0.95, topK: 20, minP: 0 }],
    [0, 'on', { temperature: 0 }],
    [1, 'on', { temperature: 1, topP: 0.95, topK: 20, minP: 0 }],
  ] as const)('%s with thinking %s', (temperature, thinking, expected) => {
    expect(samplingFor(temperature, thinking)).toEqual(expected);
  });
});
