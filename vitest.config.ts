import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/** The tests that read the synthesized CDK app: their project synthesizes it once per run. */
const synthesizedAppTests = 'test/infra/stacks/**/*.test.ts';

export default defineConfig({
  test: {
    // Every project: the streaming functions need Lambda's globals when they load, and property
    // tests run from a fixed seed (a random one under `npm run fuzz`).
    setupFiles: ['test/support/lambda-streaming-setup.ts', 'test/support/fast-check-seed.ts'],
    // Bounds that only a hang reaches: a loaded 2-core machine (load average 8) runs a test or a
    // stack's start several times slower than a quiet one, and that must not fail the suite.
    // Time-dependent behaviour runs on a fake clock (test/support/fake-timing.ts) instead.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One worker per core, not vitest's cores - 1: many files wait on sockets and child
    // processes, so on 2 cores a second worker pays (test/http: 73.5 s with one, 47.0 s with two,
    // load average about 6).
    maxWorkers: availableParallelism(),
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
