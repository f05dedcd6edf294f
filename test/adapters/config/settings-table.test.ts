import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../../infra/stacks/voice-routes';
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

/** The README's settings table: each variable its row names, with the default shown beside it. */
function readmeSettings(): ReadonlyMap<string, string> {
  const lines = readFileSync(join(repositoryRoot, 'README.md'), 'utf8').split('\n');
  const header = lines.indexOf('| setting | default | meaning |');
  if (header < 0) throw new Error('README.md has no settings table');
  const rows = lines.slice(header + 2);
  const end = rows.findIndex((line) => !line.startsWith('|'));
  const settings = new Map<string, string>();
  for (const row of rows.slice(0, end < 0 ? rows.length : end)) {
    const [names = '', defaults = ''] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    const named = [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? '');
    // `A` / `B` | `1` / `2` pairs its defaults; `A`, `B` | none gives both the same.
    const paired = names.includes(' / ') ? defaults.split(' / ') : named.map(() => defaults);
    named.forEach((name, index) => {
      settings.set(name, paired[index] ?? '');
    });
  }
  return settings;
}

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

describe('README settings table', () => {
  const readme = readmeSettings();

  it.each(entries)('lists %s, with its default', (name, setting) => {
    expect(readme.get(name), `${name} is not in the README's settings table`).toBeDefined();
    if (setting.default !== null) expect(readme.get(name)).toBe(`\`${setting.default}\``);
  });

  it('lists only variables that npm start or the handlers read', () => {
    const known: readonly string[] = [...LOCAL_VARIABLES, ...handlerSettingNames];
    expect([...readme.keys()].filter((name) => !known.includes(name))).toEqual([]);
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
