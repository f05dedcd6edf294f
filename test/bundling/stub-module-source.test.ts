import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportNamesOf, stubModuleSource } from '../../infra/bundling/stub-module-source';
import { useCacheDirectories } from './cache-directory';

const newDirectory = useCacheDirectories('jcc-stub-source-');

describe('exportNamesOf', () => {
  it('lists own exports and those of export * chains, without their defaults', async () => {
    // Prepare
    const directory = newDirectory();
    const files: Record<string, string> = {
      'outer.mjs': "export * from './middle.mjs';\nexport const own = 1;\nexport default 2;\n",
      'middle.mjs': "export * from './inner.mjs';\nexport class Middle {}\n",
      'inner.mjs': 'export function inner() {}\nexport { inner as alias };\nexport default 3;\n',
    };
    for (const [name, contents] of Object.entries(files))
      writeFileSync(join(directory, name), contents);

    // Act
    const names = await exportNamesOf(join(directory, 'outer.mjs'));

    // Assess
    expect(names).toEqual(['Middle', 'alias', 'default', 'inner', 'own']);
  });
});

describe('stubModuleSource', () => {
  it('exports every name as a pure notInThisBuild stand-in', () => {
    // Prepare / Act
    const source = stubModuleSource('lib/x.mjs', ['X', 'default'], '/runtime.ts');

    // Assess
    expect(source).toContain('import { notInThisBuild } from "/runtime.ts";');
    expect(source).toContain('const stub0 = /* @__PURE__ */ notInThisBuild("lib/x.mjs", "X");');
    expect(source).toContain('export { stub0 as X, stub1 as default };');
  });

  it('refuses an export name it cannot bind, rather than stub it wrongly', () => {
    expect(() => stubModuleSource('lib/x.mjs', ['not an identifier'], '/runtime.ts')).toThrow(
      /cannot stub export "not an identifier" of openai\/lib\/x\.mjs/,
    );
  });
});
