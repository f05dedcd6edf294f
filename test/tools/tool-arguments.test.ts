import { describe, expect, it } from 'vitest';
import { runTool } from '../support/run-tool';

// Issue 29, item 6: `npm run say -- --help` printed a stack trace (ERR_PARSE_ARGS_UNKNOWN_OPTION).
// Every tool of infra/tools answers --help with its usage, and an unknown option with one line.
const TOOLS = [
  ['say', 'infra/tools/say.ts', 'usage: npm run say --'],
  ['node:add', 'infra/tools/node-add.ts', 'usage: npm run node:add --'],
  ['openapi', 'infra/tools/write-openapi.ts', 'usage: npm run openapi'],
] as const;

/** The tool as package.json runs it (tsx), with nothing in its environment it could act on. */
const run = (script: string, args: readonly string[]) =>
  runTool(script, args, { PATH: process.env.PATH ?? '' });

describe.each(TOOLS)('npm run %s', (name, script, usage) => {
  it.each(['--help', '-h'])('%s prints the usage and exits 0', async (flag) => {
    // Act
    const result = await run(script, [flag]);

    // Assess
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.startsWith(usage)).toBe(true);
  });

  it('an unknown option: one line saying so, the usage, exit 2, no stack trace', async () => {
    // Act
    const result = await run(script, ['--no-such-option']);

    // Assess
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [first, blank, ...rest] = result.stderr.split('\n');
    expect(first).toBe(`${name}: Unknown option '--no-such-option'`);
    expect(blank).toBe('');
    expect(rest.join('\n').startsWith(usage)).toBe(true);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
