import { checkSetting } from './setting-checks';
import {
  type HandlerSetting,
  type HandlerSettingName,
  type HandlerSettingValues,
  handlerSettingNames,
  handlerSettings,
} from './settings-table';

export interface ReadSettings {
  /** Every setting, its default in place of an unset or invalid value. */
  readonly values: HandlerSettingValues;
  /** One line per unusable value, in the table's order. */
  readonly problems: readonly string[];
  /** The variables set to something, valid or not: what a rule between settings asks. */
  readonly given: ReadonlySet<HandlerSettingName>;
}

/**
 * Reads every variable of the settings table from `env`: trimmed, empty as unset, checked.
 * Every problem is collected, so a start reports them all at once.
 */
export function readSettings(env: Readonly<Record<string, string | undefined>>): ReadSettings {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const given = new Set<HandlerSettingName>();
  for (const name of handlerSettingNames) {
    const setting: HandlerSetting = handlerSettings[name];
    const fallback = setting.derived ? null : setting.default;
    const text = env[name]?.trim();
    if (text === undefined || text === '') {
      if (setting.required) problems.push(`${name} is required`);
      values[name] = fallback;
      continue;
    }
    given.add(name);
    const outcome = checkSetting(name, text, setting.check);
    if (!outcome.ok) problems.push(outcome.problem);
    values[name] = outcome.ok ? outcome.value : fallback;
  }
  // Each value was checked against its own entry above: the loop cannot say so to the compiler.
  return { values: values as HandlerSettingValues, problems, given };
}
