import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type LocalSettings,
  localSettings,
  npmStartDefaults,
  readLocalSettings,
} from '../../infra/local/local-settings';
import { renderSettingsDoc, SETTINGS_DOC_PATH } from '../../infra/tools/write-settings-doc';
import { handlerSettingNames } from '../../shared/adapters/config/settings-table';

const keptText = (): string =>
  readFileSync(new URL(`../../${SETTINGS_DOC_PATH}`, import.meta.url), 'utf8');

/** The names readLocalSettings looks up in `env`, whatever it does with them. */
function variablesRead(env: Readonly<Record<string, string>> = {}): readonly string[] {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name);
    },
  });
  readLocalSettings(recording);
  return [...read].sort();
}

describe('docs/settings.md', () => {
  it('is current: it equals what the settings tables render', () => {
    // Act
    const rendered = renderSettingsDoc();

    // Assess
    expect(keptText(), `${SETTINGS_DOC_PATH} is stale: run npm run docs:settings`).toBe(rendered);
  });

  it.each([...handlerSettingNames, ...Object.keys(localSettings)])('has a row for %s', (name) => {
    expect(keptText()).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });
});

describe("npm start's settings table", () => {
  it('names every variable readLocalSettings reads, and nothing else', () => {
    // Prepare
    const tabled = [...Object.keys(localSettings), ...Object.keys(npmStartDefaults)];

    // Act
    const read = variablesRead();

    // Assess
    expect(read.filter((name) => !tabled.includes(name))).toEqual([]);
    expect(Object.keys(localSettings).filter((name) => !read.includes(name))).toEqual([]);
  });

  it.each([
    ['PORT', (settings: LocalSettings) => String(settings.port)],
    ['HOST', (settings: LocalSettings) => settings.host],
    ['DYNAMODB_PORT', (settings: LocalSettings) => String(settings.dynamoDbPort)],
    ['DYNAMODB_HOST', (settings: LocalSettings) => settings.dynamoDbHost],
    ['TABLE_NAME', (settings: LocalSettings) => settings.tableName],
  ] as const)('says the default readLocalSettings takes for %s', (name, readValue) => {
    // Prepare
    const tabled = { ...localSettings, ...npmStartDefaults }[name].default;

    // Act
    const read = readValue(readLocalSettings({}));

    // Assess
    expect(read).toBe(String(tabled));
  });

  it('says the folder DATA_DIR defaults to', () => {
    expect(readLocalSettings({}).dataDir?.endsWith(`/${localSettings.DATA_DIR.default}`)).toBe(
      true,
    );
  });
});
