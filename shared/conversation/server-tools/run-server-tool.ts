import type { CompiledCommandSet } from '../../params';
import { lookUpCommandExamples } from './command-examples-tool';
import { resolveRelativeDate } from './relative-date';
import { ServerToolName } from './server-tool-names';

/** What a server tool may know: the node's zone, the turn's clock reading and the commands. */
export interface ServerToolContext {
  readonly timezone: string;
  readonly now: number;
  readonly commandSet: CompiledCommandSet;
}

/**
 * Runs a server tool that answers at once (`request_validation` is not one: it stops the turn).
 * Never throws: the result, or an error the model can read, is what goes back as the tool message.
 */
export function runServerTool(name: string, args: unknown, context: ServerToolContext): unknown {
  switch (name) {
    case ServerToolName.resolveRelativeDate:
      return resolveRelativeDate(readRelativeTerm(args), {
        timezone: context.timezone,
        now: context.now,
      });
    case ServerToolName.getCommandUtteranceExamples:
      return lookUpCommandExamples(context.commandSet, args);
    default:
      return { error: `${name} is not a tool the server runs` };
  }
}

function readRelativeTerm(args: unknown): string {
  if (typeof args === 'string') return args;
  if (typeof args !== 'object' || args === null) return '';
  const record = args as Record<string, unknown>;
  const term = record.relative_term ?? record.term ?? record.phrase;
  return typeof term === 'string' ? term : '';
}
