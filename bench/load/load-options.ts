import { parseArgs } from 'node:util';

/** What one `npm run load` does; every field has a flag of the same name in kebab case. */
export interface LoadOptions {
  /** Requests in total, over all connections (autocannon's `amount`). */
  readonly requests: number;
  /** Concurrent connections, each one node's conversations, one after the other. */
  readonly connections: number;
  /**
   * voice/command + continue pairs per conversation before the connection starts a new one. Short
   * conversations keep every history far below the engine's bound, so no turn may be missing.
   */
  readonly exchanges: number;
  /** Registered nodes; connection n speaks as node n modulo this. */
  readonly nodes: number;
  /** Seconds before autocannon gives up on a response (a timeout is an error). */
  readonly timeout: number;
  /** `--request-ids`: every voice request carries a `request_id` (the idempotent path). */
  readonly requestIds: boolean;
}

export const DEFAULT_LOAD_OPTIONS: LoadOptions = {
  requests: 8_000,
  connections: 50,
  exchanges: 4,
  nodes: 5,
  timeout: 20,
  requestIds: false,
};

export const LOAD_USAGE =
  'usage: npm run load [-- --requests N] [--connections N] [--exchanges N] [--nodes N] [--timeout SECONDS] [--request-ids]';

/** The options of `argv` over the defaults, or the reason they make no sense. */
export function parseLoadOptions(
  argv: readonly string[],
): { readonly options: LoadOptions } | { readonly problem: string } {
  const names = ['requests', 'connections', 'exchanges', 'nodes', 'timeout'] as const;
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        ...Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
        'request-ids': { type: 'boolean' as const },
      },
    }).values;
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  const parsed: { -readonly [Name in keyof LoadOptions]: LoadOptions[Name] } = {
    ...DEFAULT_LOAD_OPTIONS,
    requestIds: values['request-ids'] === true,
  };
  for (const name of names) {
    const text = values[name];
    if (typeof text !== 'string') continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) {
      return { problem: `--${name} must be a positive integer, got "${text}"` };
    }
    parsed[name] = value;
  }
  if (parsed.requests < parsed.connections) {
    return { problem: '--requests must be at least --connections (autocannon splits them)' };
  }
  return { options: parsed };
}
