import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A tool's name and the usage text `--help` prints. */
export interface ToolUsage {
  readonly name: string;
  readonly usage: string;
}

/**
 * The command line of one tool of infra/tools: `--help` (or `-h`) prints its usage and exits 0;
 * an unknown option or a missing value prints one line saying so, then the usage, and exits 2,
 * never a stack trace. Arguments after `--` are the tool's positionals, never options.
 */
export function parseToolArguments<const T extends ParseArgsConfig>(
  tool: ToolUsage,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  const terminator = args.indexOf('--');
  const own = terminator < 0 ? args : args.slice(0, terminator);
  if (own.includes('--help') || own.includes('-h')) {
    process.stdout.write(`${tool.usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    if (!isParseError(error)) throw error;
    process.stderr.write(`${tool.name}: ${firstLine(error.message)}\n\n${tool.usage}\n`);
    process.exit(2);
  }
}

function isParseError(error: unknown): error is Error {
  const code: unknown = error instanceof Error ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

// Node adds advice after the first sentence ("Unknown option '--x'. To specify a positional
// argument..."): the usage that follows says what to write instead.
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/\. To specify .*$/, '');
}
