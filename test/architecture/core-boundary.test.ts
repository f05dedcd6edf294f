import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CORE = ['shared/chat', 'shared/params', 'shared/conversation', 'shared/ports'];
const run = promisify(execFile);

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

describe('the core does no I/O', () => {
  it.each([
    ['process.env', /process\.env/],
    ['Date.now()', /Date\.now\(/],
    ['new Date() without an argument', /new Date\(\)/],
    ['Math.random()', /Math\.random\(/],
    [
      'an AWS SDK, openai, middy, Powertools or HTTP import',
      /from '(@aws-sdk\/|openai|@middy\/|@aws-lambda-powertools\/|aws-lambda|node:http|node:fs|dynalite)/,
    ],
  ])('no core file uses %s', async (_, pattern) => {
    const files = (await Promise.all(CORE.map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(20);
    const offenders: string[] = [];
    for (const file of files) {
      if (pattern.test(await readFile(join(root, file), 'utf8'))) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });

  it('the lint rule refuses such imports in the core folders, and only there', async () => {
    // Prepare: a copy of the Biome configuration beside two probe files with the same content.
    const scratch = await mkdtemp(join(tmpdir(), 'jcc-lint-'));
    try {
      const config = JSON.parse(await readFile(join(root, 'biome.json'), 'utf8'));
      delete config.$schema;
      await writeFile(join(scratch, 'biome.json'), JSON.stringify(config));
      const probe = "import OpenAI from 'openai';\nexport const key = [OpenAI, process.env.KEY];\n";
      for (const folder of ['shared/params', 'shared/adapters']) {
        await mkdir(join(scratch, folder), { recursive: true });
        await writeFile(join(scratch, folder, 'probe.ts'), probe);
      }
      const biome = join(root, 'node_modules/.bin/biome');
      const lint = (file: string) =>
        run(biome, ['lint', '--max-diagnostics=50', file], { cwd: scratch }).then(
          (result) => ({ failed: false, output: result.stdout + result.stderr }),
          (error: { stdout: string; stderr: string }) => ({
            failed: true,
            output: error.stdout + error.stderr,
          }),
        );

      // Act
      const core = await lint('shared/params/probe.ts');
      const adapter = await lint('shared/adapters/probe.ts');

      // Assess
      expect(core.failed).toBe(true);
      expect(core.output).toContain('noRestrictedImports');
      expect(core.output).toContain('noProcessEnv');
      expect(adapter.output).not.toContain('noRestrictedImports');
      expect(adapter.output).not.toContain('noProcessEnv');
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it.each([
    ['shared/params', "import { step } from '../conversation/turn/step';", true],
    ['shared/ports', "import { step } from '../conversation/turn/step';", true],
    ['shared/chat', "import { compileCommandSet } from '../params';", true],
    ['shared/conversation', "import { compileCommandSet } from '../params';", false],
    ['shared/adapters', "import { step } from '../conversation/turn/step';", false],
    ['functions/http/contract', "import { createRoute } from '../edge/create-route';", true],
    ['functions/http/contract', "import { mapError } from '../errors/error-table';", true],
    ['functions/http/edge', "import { apiRoute } from '../contract/api-routes';", false],
  ])(
    'a file in %s importing `%s`: refused by the layer rule: %s',
    async (folder, line, refused) => {
      // Prepare: layers point down (chat < params, ports < conversation < adapters and the edge;
      // in the edge, the contract < every other folder).
      const scratch = await mkdtemp(join(tmpdir(), 'jcc-layers-'));
      try {
        const config = JSON.parse(await readFile(join(root, 'biome.json'), 'utf8'));
        delete config.$schema;
        await writeFile(join(scratch, 'biome.json'), JSON.stringify(config));
        await mkdir(join(scratch, folder), { recursive: true });
        await writeFile(
          join(scratch, folder, 'probe.ts'),
          `${line}\nexport const used = [${line.match(/\{ (\w+) \}/)?.[1]}];\n`,
        );
        const biome = join(root, 'node_modules/.bin/biome');

        // Act
        const result = await run(biome, ['lint', `${folder}/probe.ts`], { cwd: scratch }).then(
          (done) => ({ failed: false, output: done.stdout + done.stderr }),
          (error: { stdout: string; stderr: string }) => ({
            failed: true,
            output: error.stdout + error.stderr,
          }),
        );

        // Assess
        expect(
          result.output.includes('Layers point down') || result.output.includes('bottom layer'),
        ).toBe(refused);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
  );
});
