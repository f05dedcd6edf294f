import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module afresh, as a process loads it, outside Lambda. */
async function load() {
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', '');
  vi.resetModules();
  return import('../../functions/wiring/process-config');
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('processConfig', () => {
  it('reads nothing when loaded outside Lambda: an environment not yet set is no error', async () => {
    vi.stubEnv('TABLE_NAME', '');

    await expect(load()).resolves.toBeDefined();
  });

  it('reads the environment once: a later change reaches no wiring', async () => {
    // Prepare
    vi.stubEnv('TABLE_NAME', 'first');
    const { processConfig } = await load();
    const read = processConfig();

    // Act
    vi.stubEnv('TABLE_NAME', 'second');

    // Assess
    expect(processConfig()).toBe(read);
    expect(processConfig().settings.tableName).toBe('first');
  });

  it('throws every invalid setting, and reads again on the next call', async () => {
    // Prepare
    vi.stubEnv('TABLE_NAME', 't');
    vi.stubEnv('TURN_DEADLINE_MS', 'soon');
    const { processConfig } = await load();

    // Act / Assess
    expect(() => processConfig()).toThrow(/^invalid configuration: TURN_DEADLINE_MS/);
    vi.stubEnv('TURN_DEADLINE_MS', '20000');
    expect(processConfig().settings.engine.turnDeadlineMs).toBe(20_000);
  });
});
