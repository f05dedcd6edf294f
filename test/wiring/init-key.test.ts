import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiFunctions } from '../../functions/http/contract/api-functions';
import { useFakeSecretsManager } from '../support/fake-secrets-manager';

const secretsManager = useFakeSecretsManager({ 'jcc/present': { secretString: 'sk-present' } });

/** The module as the Lambda runtime loads it during the init: afresh, with the function's env. */
async function initWith(secretId: string) {
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'VoiceCommandFunction');
  vi.stubEnv('AWS_REGION', 'eu-west-1');
  vi.stubEnv('TABLE_NAME', 'jcc-table');
  vi.stubEnv('OPENAI_BASE_URL', 'https://api.openai.com/v1');
  vi.stubEnv('LLM_MODEL', 'gpt-4.1-mini');
  vi.stubEnv('OPENAI_API_KEY', '');
  vi.stubEnv('OPENAI_API_KEY_SECRET', secretId);
  vi.resetModules();
  return import('../../functions/wiring/process-config');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the Lambda init', () => {
  it('fails with one log line naming the secret and the region when the secret is missing', async () => {
    // Prepare
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => {});

    // Act
    const loaded = initWith('jcc/openai-api-key');

    // Assess
    await expect(loaded).rejects.toThrow(/"jcc\/openai-api-key" in eu-west-1/);
    expect(errorLog).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(errorLog.mock.calls[0]?.[0]));
    expect(line).toMatchObject({
      level: 'ERROR',
      secret: 'jcc/openai-api-key',
      region: 'eu-west-1',
      message: expect.stringContaining('ResourceNotFoundException'),
    });
  });

  it('reads an existing secret during the init and wires the model', async () => {
    // Prepare
    const errorLog = vi.spyOn(console, 'error');
    const readsBefore = secretsManager.reads.length;

    // Act
    const { processConfig } = await initWith('jcc/present');
    const { functionDependencies } = await import('../../functions/wiring/function-wiring');
    const dependencies = await functionDependencies(
      {
        function: apiFunctions.voiceCommand,
        create: () => async () => ({ statusCode: 200, body: '' }),
      },
      processConfig(),
    );

    // Assess
    expect(errorLog).not.toHaveBeenCalled();
    expect(dependencies.conversation.model).not.toBeNull();
    // Read once, during the init: the wiring takes the key the init read.
    expect(secretsManager.reads.slice(readsBefore)).toEqual(['jcc/present']);
  });

  it('fails with one log line listing every invalid setting, instead of a 500 on every request', async () => {
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubEnv('TURN_DEADLINE_MS', 'soon');
    vi.stubEnv('MODEL_MAX_TOKENS', '0');

    const loaded = initWith('jcc/present');

    await expect(loaded).rejects.toThrow(/TURN_DEADLINE_MS/);
    expect(errorLog).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(errorLog.mock.calls[0]?.[0]));
    expect(line.message).toMatch(
      /^init failed: invalid configuration: .*TURN_DEADLINE_MS.*MODEL_MAX_TOKENS/,
    );
  });
});
