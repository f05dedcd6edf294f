import { type CheckedValue, checkSetting, type SettingCheck } from './setting-checks';
import { type HandlerSettingValues, handlerSettings } from './settings-table';

/**
 * One environment variable of a settings table: the handlers' (settings-table.ts) or npm start's
 * (infra/local/local-settings.ts). Both tables are read by readSettingsTable, with the same checks.
 */
export interface TableSetting {
  readonly check: SettingCheck;
  /** Taken when the variable is unset or empty, or invalid; null: none. */
  readonly default: string | number | boolean | null;
  /** Unset or empty is reported. */
  readonly required?: true;
  /** Unset, its value is computed from other settings; `default` is then only its upper bound. */
  readonly derived?: true;
  /** How docs/settings.md shows a default computed at start (`the machine's cores`). */
  readonly shownDefault?: string;
  readonly meaning: string;
}

type SettingsTable = Readonly<Record<string, TableSetting>>;

/** What reading a table yields: null when a setting has no default or its default is derived. */
export type TableValues<T extends SettingsTable> = {
  readonly [K in keyof T]:
    | CheckedValue<T[K]['check']>
    | (T[K]['default'] extends null ? null : never)
    | (T[K] extends { readonly derived: true } ? null : never);
};

export interface ReadTable<T extends SettingsTable, Values = TableValues<T>> {
  /** Every setting, its default in place of an unset or invalid value. */
  readonly values: Values;
  /** One line per unusable value, in the table's order. */
  readonly problems: readonly string[];
  /** The variables set to something, valid or not: what a rule between settings asks. */
  readonly given: ReadonlySet<keyof T & string>;
  /** The variables set to a value their check refuses (each is one of `problems`). */
  readonly refused: ReadonlySet<keyof T & string>;
}

/** The handlers' settings, read. */
export type ReadSettings = ReadTable<typeof handlerSettings, HandlerSettingValues>;

/**
 * Reads every variable of `table` from `env`: trimmed, empty as unset, checked. Every problem is
 * collected, so a start reports them all at once.
 */
export function readSettingsTable<T extends SettingsTable>(
  table: T,
  env: Readonly<Record<string, string | undefined>>,
): ReadTable<T> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const given = new Set<keyof T & string>();
  const refused = new Set<keyof T & string>();
  for (const name of Object.keys(table) as (keyof T & string)[]) {
    const setting: TableSetting = table[name] as TableSetting;
    const fallback = setting.derived ? null : setting.default;
    const text = env[name]?.trim();
    if (text === undefined || text === '') {
      if (setting.required) problems.push(`${name} is required`);
      values[name] = fallback;
      continue;
    }
    given.add(name);
    const outcome = checkSetting(name, text, setting.check);
    if (!outcome.ok) {
      problems.push(outcome.problem);
      refused.add(name);
    }
    values[name] = outcome.ok ? outcome.value : fallback;
  }
  // Each value was checked against its own entry above: the loop cannot say so to the compiler.
  return { values: values as TableValues<T>, problems, given, refused };
}

/** Reads every variable of the handlers' settings table from `env`. */
export function readSettings(env: Readonly<Record<string, string | undefined>>): ReadSettings {
  return readSettingsTable(handlerSettings, env);
}
