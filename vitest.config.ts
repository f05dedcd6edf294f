import { configDefaults, defineConfig } from 'vitest/config';

/** The tests that read the synthesized CDK app: their project synthesizes it once per run. */
const synthesizedAppTests = 'test/infra/stacks/**/*.test.ts';

export default defineConfig({
  test: {
    // Every project: the streaming functions need Lambda's globals when they load.
    setupFiles: ['test/support/lambda-streaming-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
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
