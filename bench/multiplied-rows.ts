// Issue 18's rows, each as the in-process work it cost: the CPU median of RUNS runs on this tree.
// Run directly (`npx tsx bench/multiplied-rows.ts`) to print them; copied into a checkout of an
// older commit it measures the "before" of docs/decisions/2026-11-24-cost-model.md (it uses only
// the public parameter system, the turn's `step` and the fixture, which that commit has too).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cpuUsage } from 'node:process';
import { pathToFileURL } from 'node:url';
import { DEFAULT_ENGINE_SETTINGS } from '../shared/conversation/engine-settings';
import { step } from '../shared/conversation/turn/step';
import { startTurn, type TurnContext } from '../shared/conversation/turn/turn-state';
import {
  type CommandSetSource,
  clearCommandSetCache,
  commandSetHash,
  compileCommandSet,
  compileKnownCommandSet,
} from '../shared/params';
import type { BenchRow } from './bench-row';
import { percentile, roundTo } from './engine/percentile';
import { formatBenchTable } from './format-table';

const RUNS = 3;

const times = <T>(count: number, make: (index: number) => T): T[] =>
  Array.from({ length: count }, (_, index) => make(index));
const probe = (parameters: unknown): CommandSetSource => ({
  client_tools: [{ type: 'function', function: { name: 'probe', parameters } }],
});
const nest = (depth: number): unknown => (depth === 0 ? 'x' : [nest(depth - 1)]);

/** Compiles `source` cold and checks one call of `probe` (timed): what a start and a turn do. */
const startAndCall = (source: CommandSetSource, args: unknown) => () => () => {
  const set = compileCommandSet(source);
  if (!set.ok) return;
  set.value.check({ name: 'probe', arguments: args }, 'lossless');
};

/** Each row prepares untimed (from an empty cache) and returns the work that is timed. */
const ROWS: readonly { readonly name: string; readonly prepare: () => () => void }[] = [
  {
    name: 'row 1: a 15-branch recursive anyOf under an $id, an argument nested 4 deep',
    prepare: startAndCall(
      probe({
        type: 'object',
        properties: {
          n: {
            $id: 'https://example.com/n',
            type: 'object',
            properties: { v: { $ref: '#/definitions/node' } },
            definitions: {
              node: {
                anyOf: [
                  ...times(15, () => ({ type: 'array', items: { $ref: '#/definitions/node' } })),
                  { type: 'integer' },
                ],
              },
            },
          },
        },
      }),
      { n: { v: nest(4) } },
    ),
  },
  {
    name: 'row 2: 10 patternProperties keys of ~965 instructions, a 16,000-character name',
    prepare: startAndCall(
      probe({
        type: 'object',
        patternProperties: Object.fromEntries(times(10, (index) => [`[ab]{0,480}c${index}`, true])),
      }),
      { ['ab'.repeat(8_000)]: 1 },
    ),
  },
  {
    name: 'row 3: uniqueItems under 16 x 16 allOf, 256 small arrays',
    prepare: startAndCall(
      probe({
        type: 'object',
        properties: {
          a: {
            type: 'array',
            items: {
              allOf: times(16, () => ({
                allOf: times(16, () => ({ type: 'array', uniqueItems: true })),
              })),
            },
          },
        },
      }),
      { a: times(256, (index) => [index % 7, 0, 0]) },
    ),
  },
  {
    name: 'row 4: one turn step on a reply of 2 MB of <function=t>{',
    prepare: () => {
      const url = new URL('../test/fixtures/voice-node-conversation-start.json', import.meta.url);
      const compiled = compileCommandSet(JSON.parse(readFileSync(url, 'utf8')));
      if (!compiled.ok) throw new Error('the fixture does not compile');
      let issued = 0;
      const context: TurnContext = {
        commandSet: compiled.value,
        settings: DEFAULT_ENGINE_SETTINGS,
        ids: {
          next: (prefix) => {
            issued += 1;
            return `${prefix}${issued}`;
          },
        },
        serverTools: { timezone: 'UTC', now: Date.UTC(2026, 0, 16), commandSet: compiled.value },
      };
      const content = '<function=t>{'.repeat(160_000);
      return () => {
        step(
          startTurn([{ role: 'user', content: 'x' }], false),
          { content, toolCalls: [], finishReason: 'stop', usage: null },
          context,
        );
      };
    },
  },
  {
    name: 'row 6: the lookup of a 480-pattern set after 100 other sets (a recompile on a miss)',
    prepare: () => {
      const large: CommandSetSource = {
        client_tools: times(40, (tool) => ({
          type: 'function',
          function: {
            name: `tool_${tool}`,
            parameters: {
              type: 'object',
              properties: Object.fromEntries(
                times(12, (index) => [
                  `p${index}`,
                  { type: 'string', pattern: `^[a-z]{1,30}${tool}_${index}$` },
                ]),
              ),
            },
          },
        })),
      };
      compileCommandSet(large);
      for (let index = 0; index < 100; index += 1) {
        compileCommandSet({ available_commands: [{ command_name: `small_${index}` }] });
      }
      const hash = commandSetHash(large);
      return () => {
        compileKnownCommandSet(hash, () => large);
      };
    },
  },
  {
    name: 'row 10: the url format on 16 KiB of http://::::',
    prepare: startAndCall(
      probe({ type: 'object', properties: { u: { type: 'string', format: 'url' } } }),
      {
        u: `http://${'::'.repeat(8_000)}`,
      },
    ),
  },
];

function cpuMilliseconds(work: () => void): number {
  const before = cpuUsage();
  work();
  const spent = cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

/** The median CPU of each row, every run from an empty compiled-set cache. */
export async function runMultipliedRowsBench(): Promise<BenchRow[]> {
  return ROWS.map(({ name, prepare }) => {
    const runs = times(RUNS, () => {
      clearCommandSetCache();
      return cpuMilliseconds(prepare());
    });
    return { name: `issue 18 ${name}`, value: roundTo(percentile(runs, 0.5), 1), unit: 'ms CPU' };
  });
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(formatBenchTable(await runMultipliedRowsBench()));
}
