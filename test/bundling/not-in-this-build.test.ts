import { describe, expect, it } from 'vitest';
import { notInThisBuild, OpenAiNotInThisBuildError } from '../../infra/bundling/not-in-this-build';

const sdkModule = 'resources/responses/responses.mjs';
const stubbed = () => notInThisBuild(sdkModule, 'Responses');

describe('notInThisBuild', () => {
  it('can be constructed, as the OpenAI constructor builds every resource', () => {
    // Prepare
    const Responses = stubbed();

    // Act / Assess
    expect(() => new Responses({ client: true })).not.toThrow();
  });

  it.each([
    ['reading a method of an instance', () => new (stubbed())().create, 'reading .create of'],
    ['calling it', () => stubbed()(), 'calling'],
    [
      'reading a static member',
      () => Reflect.get(stubbed(), 'createResponse'),
      'reading .createResponse of',
    ],
  ])('throws a clear OpenAiNotInThisBuildError on %s', (_use, act, words) => {
    expect(act).toThrow(OpenAiNotInThisBuildError);
    expect(act).toThrow(
      `openai: ${words} Responses (openai/${sdkModule}) is not in this build. The Lambda bundles`,
    );
    expect(act).toThrow(/infra\/bundling\/openai-chat-only\.ts/);
  });

  it('names the module and export on the error, for logs and tests', () => {
    // Prepare
    const instance = new (stubbed())();

    // Act
    let thrown: unknown;
    try {
      Reflect.get(instance, 'stream');
    } catch (error) {
      thrown = error;
    }

    // Assess
    expect(thrown).toMatchObject({
      name: 'OpenAiNotInThisBuildError',
      sdkModule,
      exportName: 'Responses',
    });
  });

  it('lets the language load code around it: extends, instanceof, await, JSON', async () => {
    // Prepare
    const Responses = stubbed();
    class Extended extends Responses {}
    const instance = new Responses();

    // Act
    const awaited = await Promise.resolve(instance);

    // Assess
    expect(typeof Extended).toBe('function');
    expect({} instanceof Responses).toBe(false);
    expect(awaited).toBe(instance);
    expect(JSON.stringify({ responses: instance })).toBe('{"responses":{}}');
  });
});
