/**
 * `npm run docs:settings`: writes docs/settings.md from the settings tables, the handlers'
 * (shared/adapters/config/settings-table.ts) and npm start's own (infra/local/local-settings.ts).
 * test/tools/settings-doc.test.ts fails while the page and the tables disagree.
 */
import { writeFile } from 'node:fs/promises';
import type { TableSetting } from '../../shared/adapters/config/read-settings';
import type { SettingCheck } from '../../shared/adapters/config/setting-checks';
import {
  type HandlerSetting,
  handlerSettingNames,
  handlerSettings,
} from '../../shared/adapters/config/settings-table';
import { localSettings, type NpmStartDefault, npmStartDefaults } from '../local/local-settings';

export const SETTINGS_DOC_PATH = 'docs/settings.md';

const INTRODUCTION = `# Settings

Every environment variable the handlers and \`npm start\` read: its default, what it accepts and
what it means. Written by \`npm run docs:settings\` from the settings tables
(\`shared/adapters/config/settings-table.ts\`, \`infra/local/local-settings.ts\`); a test fails
when this page and the tables disagree, so change the table, then run the command.

The handlers read and check every setting once, when a container starts (\`npm start\` checks
them, and its own, with the same checks before it starts anything): an invalid one stops
\`npm start\` with one line naming it and what it takes, and is reported in a Lambda function's
log. Deployed, the stack sets those its \`cdk.json\` context names, and every other at its
default ([deploy.md](deploy.md#settings-cdk-context)).`;

/** docs/settings.md as the tables say it. */
export function renderSettingsDoc(): string {
  const handlerRows = handlerSettingNames.map((name) => {
    const setting: HandlerSetting = handlerSettings[name];
    const local: NpmStartDefault | undefined = (
      npmStartDefaults as Readonly<Record<string, NpmStartDefault>>
    )[name];
    const underNpmStart = local === undefined ? '' : `${shown(local.default)}: ${local.meaning}`;
    return row([
      `\`${name}\``,
      defaultOf(setting),
      underNpmStart,
      accepted(setting.check),
      linked(setting.meaning),
    ]);
  });
  const localRows = Object.entries(localSettings).map(([name, setting]: [string, TableSetting]) =>
    row([`\`${name}\``, defaultOf(setting), accepted(setting.check), linked(setting.meaning)]),
  );
  return [
    INTRODUCTION,
    '## The handlers',
    'Read by every Lambda function and by the handlers under `npm start`.',
    [
      row(['setting', 'default', 'under `npm start`', 'accepts', 'meaning']),
      row(['---', '---', '---', '---', '---']),
      ...handlerRows,
    ].join('\n'),
    '## npm start',
    'Read by `npm start` only, and by `npm run say` and `npm run node:add`, which find the ' +
      '`npm start` of the same settings: give them the same ones (`npm run model:pull` reads ' +
      'MODEL_CACHE_DIR and HF_ENDPOINT, and LLM_MODEL and STT_MODEL above, as `npm start` does).',
    [
      row(['setting', 'default', 'accepts', 'meaning']),
      row(['---', '---', '---', '---']),
      ...localRows,
    ].join('\n'),
    '',
  ].join('\n\n');
}

/** A value as code; a description of one (`the machine's zone`) as words. */
function shown(value: string): string {
  return /\s/.test(value) ? value : `\`${value}\``;
}

function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
}

function defaultOf(setting: TableSetting & { readonly reservedByLambda?: true }): string {
  if (setting.required) return 'required';
  if (setting.shownDefault !== undefined) return setting.shownDefault;
  if (setting.default === null) return 'none';
  const literal = `\`${setting.default}\``;
  const notes = [
    ...(setting.derived ? ['at most; computed from other settings when unset'] : []),
    ...(setting.reservedByLambda ? ['Lambda sets it'] : []),
  ];
  return notes.length === 0 ? literal : `${literal} (${notes.join('; ')})`;
}

function accepted(check: SettingCheck): string {
  switch (check.kind) {
    case 'integer':
      return `integer, ${check.min} to ${check.max}`;
    case 'number':
      return `number, ${check.min} to ${check.max}`;
    case 'oneOf':
      return check.values.map((value) => `\`${value}\``).join(', ');
    case 'boolean':
      return '`true`, `false`';
    case 'httpUrl':
      return 'http(s) URL';
    case 'publicHttpUrl':
      return 'http(s) URL, no user or password';
    case 'timeZone':
      return 'IANA time zone';
    case 'text':
      return 'text';
    case 'secret':
      return 'text, never logged';
  }
}

/** `docs/x.md` in a meaning becomes a link relative to docs/, where the page lives. */
function linked(meaning: string): string {
  return meaning.replace(/docs\/([\w./-]+\.md)/g, '[$1]($1)');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(SETTINGS_DOC_PATH, renderSettingsDoc());
  console.log(`wrote ${SETTINGS_DOC_PATH}`);
}
