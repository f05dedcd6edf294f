import type { CommandSetIssue } from '../params';

/**
 * The domain's typed errors. Each crosses the boundary to the edge, where one table maps it to an
 * HTTP status (functions/http/errors/error-table.ts). They carry structured fields, never secrets.
 */
export class ConversationNotFoundError extends Error {
  override readonly name = 'ConversationNotFoundError';
  constructor(readonly conversationId: string) {
    super(`conversation ${conversationId} does not exist or has expired`);
  }
}

export class CommandSetInvalidError extends Error {
  override readonly name = 'CommandSetInvalidError';
  constructor(readonly issues: readonly CommandSetIssue[]) {
    super(`the command registration has ${issues.length} problem(s)`);
  }
}

export interface ToolResultProblem {
  readonly toolCallId: string;
  readonly problem: 'unknown_id' | 'missing_result' | 'duplicate_result';
}

export class ToolResultsMismatchError extends Error {
  override readonly name = 'ToolResultsMismatchError';
  constructor(readonly problems: readonly ToolResultProblem[]) {
    super('tool_results must hold exactly one result for each pending tool call');
  }
}

export class InvalidTimezoneError extends Error {
  override readonly name = 'InvalidTimezoneError';
  constructor(readonly timezone: string) {
    super(`"${timezone.slice(0, 64)}" is not an IANA time zone (such as America/New_York)`);
  }
}

export class NothingPendingError extends Error {
  override readonly name = 'NothingPendingError';
  constructor(readonly conversationId: string) {
    super(`conversation ${conversationId} has no pending tool calls to continue`);
  }
}

export class TurnTimeoutError extends Error {
  override readonly name = 'TurnTimeoutError';
  /** How long the turn had run when it gave up (its model calls, nearly all); null if unknown. */
  readonly elapsedMs: number | null;
  constructor(
    readonly deadlineMs: number,
    readonly modelCalls: number,
    options?: { cause?: unknown; elapsedMs?: number },
  ) {
    super(`the turn did not finish within ${deadlineMs} ms`, options);
    this.elapsedMs = options?.elapsedMs ?? null;
  }
}

export class ModelFailedError extends Error {
  override readonly name = 'ModelFailedError';
  constructor(
    readonly failure: string,
    readonly modelCalls: number,
    options?: { cause?: unknown },
  ) {
    super(`the language model failed (${failure})`, options);
  }
}

/** A stored conversation's command set no longer compiles: a bug or a corrupted item (a 500). */
export class StoredCommandSetInvalidError extends Error {
  override readonly name = 'StoredCommandSetInvalidError';
  constructor(readonly commandSetHash: string) {
    super(`stored command set ${commandSetHash} no longer compiles`);
  }
}

export class ModelNotConfiguredError extends Error {
  override readonly name = 'ModelNotConfiguredError';
  constructor() {
    super(
      'no language model is configured: set OPENAI_BASE_URL and LLM_MODEL (any OpenAI-compatible ' +
        'server), and OPENAI_API_KEY only if that server needs one',
    );
  }
}

/** A request with this id is still running; the node should retry it shortly. */
export class RequestInProgressError extends Error {
  override readonly name = 'RequestInProgressError';
  /** `requestId` is the node's id; null for results sent without one (continue, continue/stream). */
  constructor(readonly requestId: string | null) {
    super(
      requestId === null
        ? 'these tool results are still being answered by another request; retry shortly to get its answer'
        : `request ${requestId} is still being answered; retry it shortly`,
    );
  }
}

/**
 * The request id was answered, but its answer is no longer kept (a later answer too large to keep
 * both): replaying is impossible, and running it again would ask the model a second time.
 */
export class RequestAnswerNotKeptError extends Error {
  override readonly name = 'RequestAnswerNotKeptError';
  constructor(readonly requestId: string) {
    super(
      `request ${requestId} was answered, but its answer is no longer kept (a later answer was ` +
        'too large to keep both); nothing was run again. Send the utterance again as a new request.',
    );
  }
}

/** The request id was used before with another body: replaying would answer the wrong question. */
export class RequestIdReusedError extends Error {
  override readonly name = 'RequestIdReusedError';
  constructor(readonly requestId: string) {
    super(`request_id ${requestId} was already used with a different body`);
  }
}

/**
 * Untrusted CPU work of one request passed its hard limit (shared/conversation/turn/untrusted-work.ts):
 * at `start`, compiling the registration; in a `turn`, checking a model reply. `limit` says which
 * limit stopped it: `time` (the deadline), `memory`, or `crash` (the isolated work died otherwise).
 */
export class UntrustedWorkOverrunError extends Error {
  override readonly name = 'UntrustedWorkOverrunError';
  constructor(
    readonly work: 'start' | 'turn',
    readonly limit: 'time' | 'memory' | 'crash',
    readonly limitMs: number,
    options?: { cause?: unknown },
  ) {
    const what = work === 'start' ? 'the registration' : 'the model reply';
    const why = { time: 'past its deadline', memory: 'out of memory', crash: 'it stopped' }[limit];
    super(`${what} could not be checked: ${why}`, options);
  }
}
