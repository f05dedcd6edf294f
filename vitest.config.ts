import { configDefaults, defineConfig } from 'vitest/config';

/** The tests that read the synthesized CDK app: their project synthesizes it once per run. */
const synthesizedAppTests = 'test/infra/stacks/**/*.test.ts';

export default defineConfig({
  test: {
    // Bounds that only a hang reaches: a loaded 2-core machine (load average 8) runs a test or a
    // stack's start several times slower than a quiet one, and that must not fail the suite.
    // Time-dependent behaviour runs on a fake clock (test/support/fake-timing.ts) instead.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, synthesizedAppTests],
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          include: [synthesizedAppTests],
          globalSetup: ['test/infra/synthesize-once.global.ts'],
        },
      },
    ],
  },
});
