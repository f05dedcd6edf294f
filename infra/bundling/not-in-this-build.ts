// Bundled into every Lambda: what a stubbed part of the openai SDK is made of (see
// openai-chat-only-plugin.ts). Kept free of imports so it adds a few hundred bytes, no more.

/** Thrown when the code reaches a part of the openai SDK that the chat-only bundle left out. */
export class OpenAiNotInThisBuildError extends Error {
  override readonly name = 'OpenAiNotInThisBuildError';

  constructor(
    readonly sdkModule: string,
    readonly exportName: string,
    use: string,
  ) {
    super(
      `openai: ${use} ${exportName} (openai/${sdkModule}) is not in this build. The Lambda ` +
        'bundles keep only the Chat Completions part of the SDK; add the module to the allow-list ' +
        'in infra/bundling/openai-chat-only.ts (see docs/decisions/2026-11-22-bundle-size.md).',
    );
  }
}

/** What a stub export looks like to the SDK code around it: a class it may construct. */
export interface StubbedExport {
  new (...parameters: unknown[]): Record<string, unknown>;
  (...parameters: unknown[]): never;
}

// Read by the language itself, not by a caller: `class X extends Stub` reads `prototype`,
// `instanceof` reads `Symbol.hasInstance`. Letting them through keeps module loading quiet.
const functionInternals = new Set<PropertyKey>(['prototype', 'name', 'length']);
// Probed by `await`, JSON.stringify and friends on anything; answering "absent" is the truth.
const probedByTheRuntime = new Set<PropertyKey>(['then', 'toJSON']);

/**
 * The stand-in for one export of a stubbed SDK module. The client can still construct it (the
 * `OpenAI` constructor builds every resource), but calling it, reading a static member, or
 * reading anything on an instance throws `OpenAiNotInThisBuildError`.
 */
export function notInThisBuild(sdkModule: string, exportName: string): StubbedExport {
  const fail = (use: string): never => {
    throw new OpenAiNotInThisBuildError(sdkModule, exportName, use);
  };
  const instance = (): Record<string, unknown> =>
    new Proxy(
      {},
      {
        get: (_target, property) =>
          typeof property === 'symbol' || probedByTheRuntime.has(property)
            ? undefined
            : fail(`reading .${property} of`),
      },
    );
  // A plain function, not an arrow: only those can be the target of a `construct` trap.
  const target = function stubbedExport(): void {};
  const stub = new Proxy(target, {
    apply: () => fail('calling'),
    construct: () => instance(),
    get: (stubTarget, property, receiver) =>
      typeof property === 'symbol' || functionInternals.has(property)
        ? Reflect.get(stubTarget, property, receiver)
        : fail(`reading .${property} of`),
  });
  return stub as unknown as StubbedExport;
}
