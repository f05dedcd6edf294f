import type { CommandSetIssue, CommandSetSource } from '../../params';
import type { ModelReply } from '../../ports/language-model';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

/** What compiling a registration apart tells conversation/start. */
export type CompileCheck =
  | { readonly ok: true; readonly hash: string }
  | { readonly ok: false; readonly issues: readonly CommandSetIssue[] };

/**
 * The CPU work a request's untrusted input decides the cost of: compiling a node's registration
 * at conversation/start, and per model reply the scan, normalization and validation (`step`).
 * An adapter may run it apart under a hard limit of time and memory (shared/adapters/isolation);
 * a miss then rejects with `UntrustedWorkOverrunError` and costs that request only. The same work
 * on the calling thread, unlimited, is `inThreadWork` (in-thread-work.ts).
 */
export interface UntrustedWork {
  /** Compiles the registration as start does (server tool names reserved). */
  compile(source: CommandSetSource): Promise<CompileCheck>;
  /** `step`; `commandSource` is the stored registration of `context.commandSet`. */
  step(
    state: TurnState,
    reply: ModelReply,
    context: TurnContext,
    commandSource: string,
  ): Promise<TurnAction>;
}
