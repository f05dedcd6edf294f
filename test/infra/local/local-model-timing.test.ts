import { describe, expect, it } from 'vitest';
import { isLocalAddress, localModelTiming } from '../../../infra/local/local-model-timing';
import { readServiceConfig } from '../../../shared/adapters/config/service-config';

describe('isLocalAddress: a model on this machine or the local network', () => {
  it.each([
    ['http://127.0.0.1:8080/v1', true],
    ['http://localhost:11434/v1', true],
    ['http://10.0.0.5:8000/v1', true],
    ['http://172.20.1.2:8000/v1', true],
    ['http://192.168.1.20:11434/v1', true],
    ['http://169.254.10.1/v1', true],
    ['http://100.101.102.103:8080/v1', true],
    ['http://[::1]:8080/v1', true],
    ['http://[fd12:3456::1]:8080/v1', true],
    ['http://[fe80::1]:8080/v1', true],
    ['http://ollama:11434/v1', true],
    ['http://host.docker.internal:8080/v1', true],
    ['http://gpu-box.local:8000/v1', true],
    ['https://api.openai.com/v1', false],
    ['https://openrouter.ai/api/v1', false],
    ['http://172.32.0.1/v1', false],
    ['http://8.8.8.8/v1', false],
    ['http://[2001:db8::1]/v1', false],
    ['not a url', false],
  ])('%s: %s', (baseURL, local) => {
    expect(isLocalAddress(baseURL)).toBe(local);
  });
});

describe('localModelTiming: what npm start sets for a local model', () => {
  const local = { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1', LLM_MODEL: 'qwen3' };

  it('a deadline and a warm-up that fit a cold first turn on a small CPU', () => {
    expect(localModelTiming(local).variables).toEqual({
      TURN_DEADLINE_MS: '45000',
      WARMUP_TIMEOUT_MS: '40000',
    });
  });

  it.each([
    ['both set: nothing', { TURN_DEADLINE_MS: '30000', WARMUP_TIMEOUT_MS: '0' }, {}],
    [
      'the deadline set: the warm-up below it',
      { TURN_DEADLINE_MS: '30000' },
      { WARMUP_TIMEOUT_MS: '28000' },
    ],
    [
      'a long deadline set: the local warm-up',
      { TURN_DEADLINE_MS: '120000' },
      { WARMUP_TIMEOUT_MS: '40000' },
    ],
    ['the warm-up set', { WARMUP_TIMEOUT_MS: '5000' }, { TURN_DEADLINE_MS: '45000' }],
    ['an invalid deadline: left to the configuration', { TURN_DEADLINE_MS: 'soon' }, {}],
  ])('explicit settings win: %s', (_case, explicit, expected) => {
    expect(localModelTiming({ ...local, ...explicit }).variables).toEqual(expected);
  });

  it.each([
    ['a hosted model', { OPENAI_BASE_URL: 'https://api.openai.com/v1' }],
    ['no model', {}],
  ])('sets nothing for %s', (_case, env) => {
    expect(localModelTiming(env).variables).toEqual({});
  });

  it('sets what the handlers accept, whatever the deadline given', () => {
    for (const deadline of ['1000', '2500', '45000', '600000']) {
      const env = { ...local, TABLE_NAME: 't', TURN_DEADLINE_MS: deadline };
      expect(() => readServiceConfig({ ...env, ...localModelTiming(env).variables })).not.toThrow();
    }
  });
});
