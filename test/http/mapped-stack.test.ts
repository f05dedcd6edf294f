import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mappedStack } from '../../functions/http/errors/mapped-stack';

// A minified bundle with its map, as the functions are deployed, whose code throws.
const directory = mkdtempSync(join(tmpdir(), 'mapped-stack-'));
const bundle = join(directory, 'index.mjs');
let stack = '';

beforeAll(async () => {
  writeFileSync(
    join(directory, 'thrower.ts'),
    ['export function explode(): never {', "  throw new Error('exploded');", '}', ''].join('\n'),
  );
  await build({
    stdin: {
      contents: "export { explode } from './thrower';",
      resolveDir: directory,
      loader: 'ts',
    },
    outfile: bundle,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    sourcemap: true,
    logLevel: 'silent',
  });
  // Thrown in plain Node, as in Lambda: vitest maps the stacks of its own process.
  const script = `import { explode } from '${pathToFileURL(bundle).href}';
    try { explode(); } catch (error) { process.stdout.write(error.stack); }`;
  stack = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('mappedStack: the stack of a 500, mapped when it is logged', () => {
  it("names the bundle's frames by their source file and line", () => {
    // Act
    const mapped = mappedStack(stack, bundle);

    // Assess: the throw is line 2 of thrower.ts; Node's own frames are untouched.
    expect(stack).toMatch(/index\.mjs:1:\d+/);
    expect(mapped).toMatch(/thrower\.ts:2:\d+/);
    expect(mapped).not.toContain('index.mjs');
    expect(mapped).toContain('[eval1]');
  });

  it('leaves a stack as it is when the bundle has no map, or the stack is not from it', () => {
    // Arrange
    const elsewhere = join(directory, 'other.mjs');

    // Act / Assess
    expect(mappedStack(stack, elsewhere)).toBe(stack);
    writeFileSync(`${elsewhere}.map`, 'not a map');
    expect(mappedStack(stack.replaceAll(bundle, elsewhere), elsewhere)).toBe(
      stack.replaceAll(bundle, elsewhere),
    );
  });
});
