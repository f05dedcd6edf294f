import { describe, expect, it } from 'vitest';
import { checkSetting } from '../../../shared/adapters/config/setting-checks';
import {
  defaultWarmUpTimeoutMs,
  type HandlerSetting,
  handlerSettingNames,
  handlerSettings,
} from '../../../shared/adapters/config/settings-table';
import { DEFAULT_ENGINE_SETTINGS } from '../../../shared/conversation/engine-settings';
import { LOCAL_VARIABLES, STACK_VARIABLES } from '../../support/stack-variables';

const entries = handlerSettingNames.map((name): [string, HandlerSetting] => [
  name,
  handlerSettings[name],
]);

describe('handlerSettings', () => {
  it.each(entries.filter(([, setting]) => setting.default !== null))(
    '%s: its default passes its own check',
    (name, setting) => {
      expect(checkSetting(name, String(setting.default), setting.check)).toEqual({
        ok: true,
        value: setting.default,
      });
    },
  );

  it.each([
    ['TURN_DEADLINE_MS', DEFAULT_ENGINE_SETTINGS.turnDeadlineMs],
    ['WARMUP_TIMEOUT_MS', DEFAULT_ENGINE_SETTINGS.warmUpTimeoutMs],
    ['PARAM_NORMALIZATION', DEFAULT_ENGINE_SETTINGS.normalization],
    ['MAX_VALIDATION_RETRIES', DEFAULT_ENGINE_SETTINGS.maxValidationRetries],
    ['STRICT_TOOL_SCHEMAS', DEFAULT_ENGINE_SETTINGS.strictToolSchemas],
    ['CONVERSATION_TTL_SECONDS', DEFAULT_ENGINE_SETTINGS.conversationTtlSeconds],
  ] as const)('%s defaults to the engine default', (name, engineDefault) => {
    expect(handlerSettings[name].default).toBe(engineDefault);
  });

  it.each([
    [25_000, 20_000],
    [8_000, 6_000],
    [2_000, 0],
    [1_000, 0],
  ])('the warm-up of a %i ms turn waits %i ms by default', (deadline, expected) => {
    expect(defaultWarmUpTimeoutMs(deadline)).toBe(expected);
  });
});

describe('STACK_VARIABLES', () => {
  it('covers every handler setting and every variable npm start reads', () => {
    const missing = [...handlerSettingNames, ...LOCAL_VARIABLES].filter(
      (name) => !STACK_VARIABLES.includes(name),
    );
    expect(missing).toEqual([]);
  });
});
