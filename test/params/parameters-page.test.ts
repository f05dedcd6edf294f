import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRetryMessage, type NormalizationPolicy } from '../../shared/params';
import { compileOrThrow, typedCommand } from './support/command-sets';

// docs/parameters.md promises node developers what the server does to a call; its tables marked
// `<!-- tested: ... -->` are run here row by row, so the page cannot drift from the code.
const PAGE = readFileSync(new URL('../../docs/parameters.md', import.meta.url), 'utf8');

/** The rows of the table after `<!-- tested: name -->`, as cells without their backticks. */
function tableRows(name: string): string[][] {
  const lines = sectionLines(name);
  const rows = lines.slice(0, lines.findIndex((line) => !line.startsWith('|')) >>> 0);
  return rows.slice(2).map((row) =>
    row
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim()),
  );
}

/** The fenced block after `<!-- tested: name -->`. */
function fencedBlock(name: string): string {
  const lines = sectionLines(name);
  const end = lines.indexOf('```', 1);
  return lines.slice(1, end).join('\n');
}

function sectionLines(name: string): string[] {
  const marker = `<!-- tested: ${name} -->\n`;
  const start = PAGE.indexOf(marker);
  if (start < 0) throw new Error(`docs/parameters.md has no ${marker.trim()}`);
  return PAGE.slice(start + marker.length).split('\n');
}

const unquoted = (cell: string): string => cell.replace(/^`(.*)`$/, '$1');
const json = (cell: string): unknown => JSON.parse(unquoted(cell));
const propertiesOf = (parameter: Record<string, unknown>) =>
  compileOrThrow({ available_commands: [typedCommand('probe', [{ name: 'p', ...parameter }])] })
    .tools[0]?.function.parameters.properties;

describe('docs/parameters.md: the types and the JSON Schema each becomes', () => {
  const rows = tableRows('types').flatMap(([names = '', schema = '']) =>
    [...names.matchAll(/`([^`]+)`/g)].map((match) => [match[1] ?? '', schema] as const),
  );

  it.each(rows)('%s', (type, schema) => {
    expect(propertiesOf({ type })).toEqual({ p: json(schema) });
  });
});

describe('docs/parameters.md: enum values and defaults as the SDK writes them', () => {
  it.each(tableRows('declared'))('%s', (declared = '', schema = '') => {
    expect(propertiesOf(json(declared) as Record<string, unknown>)).toEqual({ p: json(schema) });
  });
});

describe('docs/parameters.md: every rule, by example', () => {
  const shape = JSON.parse(fencedBlock('shape')) as Record<string, unknown>;
  const POLICIES: readonly NormalizationPolicy[] = ['strict', 'lossless', 'lenient'];
  const validChoice = {
    question: 'Which one?',
    options: [
      { label: 'A', description: 'First' },
      { label: 'B', description: 'Second' },
    ],
  };

  it.each(tableRows('repairs'))('%s, sent %s', (declared = '', sent = '', ...outcomes) => {
    // Prepare
    const onShape = declared.startsWith('`propose.');
    const parameter = onShape ? unquoted(declared).slice('propose.'.length) : 'p';
    const set = onShape
      ? compileOrThrow({ client_tools: [shape] })
      : compileOrThrow({
          available_commands: [
            typedCommand('probe', [{ name: 'p', ...(json(declared) as object) }]),
          ],
        });
    const base = onShape ? validChoice : {};
    const args = sent === 'left out' ? base : { ...base, [parameter]: json(sent) };

    // Act
    const got = POLICIES.map((policy) => {
      const check = set.check({ name: onShape ? 'propose' : 'probe', arguments: args }, policy);
      if (!check.ok) return 'retry';
      return Object.hasOwn(check.arguments, parameter) ? check.arguments[parameter] : 'left out';
    });

    // Assess
    const expected = outcomes.map((cell) =>
      cell === 'retry' || cell === 'left out' ? cell : json(cell),
    );
    expect(got).toEqual(expected);
  });
});

describe('docs/parameters.md: the retry message', () => {
  it('is the one the example call gets', () => {
    // Prepare
    const set = compileOrThrow({
      available_commands: [
        typedCommand('get_weather', [
          { name: 'city', type: 'string' },
          { name: 'resolved_datetimes', type: 'array<datetime>', required: true },
        ]),
      ],
    });

    // Act
    const check = set.check(
      { name: 'get_weather', arguments: { town: 'Paris', resolved_datetimes: ['tomorrow'] } },
      'lossless',
    );

    // Assess
    expect(check.ok ? '' : buildRetryMessage(check.issues, ['get_weather'])).toBe(
      fencedBlock('retry-message'),
    );
  });
});
