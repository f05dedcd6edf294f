import {
  CommandSetInvalidError,
  ConversationNotFoundError,
  InvalidTimezoneError,
  ModelFailedError,
  ModelNotConfiguredError,
  NothingPendingError,
  RequestAnswerNotKeptError,
  RequestIdReusedError,
  RequestInProgressError,
  ToolResultsMismatchError,
  TurnTimeoutError,
  UntrustedWorkOverrunError,
} from '../../../shared/conversation';
import {
  ChatMaxTokensError,
  ChatTooLargeError,
} from '../../../shared/conversation/chat/chat-errors';
import {
  ConversationConflictError,
  ConversationTooLargeError,
  StorageUnavailableError,
} from '../../../shared/ports';
import { LanguageModelFailure } from '../../../shared/ports/language-model';
import {
  SpeechBusyError,
  SpeechProviderError,
  SpeechTooLongError,
  TextNotSpeakableError,
} from '../../../shared/ports/speech';
import { RateLimitedError } from '../edge/limit-node-rate';
import { suggestedDeadlineMs, turnTimeoutMessage } from './deadline-advice';
import { errorBody, HttpError, type MappedError } from './http-error';
import { modelFailureAnswer, speechFailureAnswer } from './provider-failure-codes';
import { SpeechNotConfiguredError } from './speech-not-configured-error';

type Rule = readonly [new (...args: never[]) => Error, (error: never) => MappedError];

const rule = <E extends Error>(
  type: new (...args: never[]) => E,
  map: (error: E) => MappedError,
): Rule => [type, map as (error: never) => MappedError];

const body = (
  statusCode: number,
  code: string,
  message: string,
  details: readonly unknown[] = [],
) => ({
  statusCode,
  body: errorBody(code, message, details),
});

const TOO_LARGE_MESSAGES: Readonly<Record<ConversationTooLargeError['part'], string>> = {
  registration:
    'The registration is too large to store with a conversation; send fewer or shorter commands.',
  exchange:
    'This exchange has grown past what a conversation can hold; nothing was sent to the model ' +
    'and nothing changed. Start a new utterance with voice/command.',
  item: 'The conversation cannot be stored at that size; nothing changed. Start a new utterance.',
};

/**
 * An engine in this process (the embedded model, synthesizer or recognizer) has as much work as
 * it takes: nothing was done, retry after `retryAfterSeconds`. One shape for every such 503.
 */
const busy = (
  code: string,
  message: string,
  retryAfterSeconds: number,
  detail: Readonly<Record<string, unknown>>,
) => ({
  ...body(503, code, message, [{ ...detail, retry_after_seconds: retryAfterSeconds }]),
  headers: { 'Retry-After': String(retryAfterSeconds) },
});

/**
 * A full queue of the embedded model (npm start): about one CPU turn, after which a place is free.
 * (The speech engines say their own wait on `SpeechBusyError`.)
 */
const MODEL_BUSY_RETRY_AFTER_SECONDS = 5;

/** A character's code point as Unicode charts name it (`4F60`). */
const codePointOf = (character: string): string =>
  (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

/**
 * The one table from typed errors to the statuses of docs/node-api.md. Messages are written for node
 * developers and never hold secrets; an error not listed here is a 500 with a generic body.
 */
const RULES: readonly Rule[] = [
  rule(HttpError, (error) => body(error.statusCode, error.code, error.message, error.details)),
  rule(CommandSetInvalidError, (error) =>
    body(400, 'invalid_command_set', error.message, error.issues),
  ),
  rule(ToolResultsMismatchError, (error) =>
    body(
      400,
      'tool_results_mismatch',
      error.message,
      // The wire is snake_case, as the request's own tool_results[].tool_call_id.
      error.problems.map((problem) => ({
        tool_call_id: problem.toolCallId,
        problem: problem.problem,
      })),
    ),
  ),
  rule(ChatMaxTokensError, (error) =>
    body(400, 'invalid_request', `${error.message}.`, [
      { path: '/max_tokens', limit: error.limit, requested: error.requested },
    ]),
  ),
  rule(ChatTooLargeError, (error) =>
    body(413, 'chat_too_large', `The chat is too long: ${error.message}.`, [
      { limit_characters: error.limitCharacters, received_characters: error.characters },
    ]),
  ),
  rule(InvalidTimezoneError, (error) => body(400, 'invalid_timezone', error.message)),
  rule(ConversationNotFoundError, (error) => body(404, 'conversation_not_found', error.message)),
  rule(ConversationTooLargeError, (error) =>
    body(413, 'conversation_too_large', TOO_LARGE_MESSAGES[error.part], [
      { part: error.part, size_bytes: error.sizeBytes, limit_bytes: error.limitBytes },
    ]),
  ),
  rule(ConversationConflictError, () => ({
    ...body(
      409,
      'conversation_conflict',
      'The conversation changed during this request; retry it.',
    ),
    headers: { 'Retry-After': '1' },
  })),
  rule(NothingPendingError, (error) => body(409, 'nothing_pending', error.message)),
  rule(RequestInProgressError, (error) => ({
    ...body(409, 'request_in_progress', error.message),
    headers: { 'Retry-After': '1' },
  })),
  rule(RateLimitedError, (error) => ({
    ...body(429, 'rate_limited', error.message, [
      {
        limit_requests: error.limit.requests,
        window_seconds: error.limit.windowSeconds,
        retry_after_seconds: error.retryAfterSeconds,
      },
    ]),
    headers: { 'Retry-After': String(error.retryAfterSeconds) },
  })),
  rule(RequestIdReusedError, (error) => body(422, 'request_id_reused', error.message)),
  rule(RequestAnswerNotKeptError, (error) => body(422, 'answer_not_kept', error.message)),
  rule(ModelFailedError, (error) => {
    if (error.failure === LanguageModelFailure.busy) {
      return busy(
        'llm_busy',
        'The embedded language model is answering other requests and its queue is full; retry shortly.',
        MODEL_BUSY_RETRY_AFTER_SECONDS,
        { failure: error.failure },
      );
    }
    const own = modelFailureAnswer(error.failure);
    return body(
      502,
      own?.code ?? 'llm_failed',
      own?.message ?? `The language model failed after the allowed attempts (${error.failure}).`,
      [{ failure: error.failure, model_calls: error.modelCalls }],
    );
  }),
  rule(ModelNotConfiguredError, (error) => body(503, 'llm_not_configured', error.message)),
  // Speech has its own codes: an alarm on the model's 502s must not fire for a speech provider's.
  rule(SpeechProviderError, (error) => {
    const details = [{ direction: error.direction, failure: error.failure }];
    const own = speechFailureAnswer(error.failure);
    if (own !== undefined) return body(502, own.code, own.message, details);
    return body(
      502,
      'speech_provider_failed',
      `The ${error.direction === 'speech_to_text' ? 'speech-to-text' : 'text-to-speech'} provider failed (${error.failure}).`,
      details,
    );
  }),
  rule(SpeechBusyError, (error) =>
    busy(
      'speech_busy',
      error.direction === 'text_to_speech'
        ? `The synthesizer is speaking ${error.capacity} answers already; retry shortly.`
        : 'The speech recognizer is busy with other recordings; nothing was done. Retry shortly.',
      error.retryAfterSeconds,
      { capacity: error.capacity },
    ),
  ),
  rule(SpeechTooLongError, (error) =>
    body(
      413,
      'speech_too_long',
      `The text's speech lasts longer than ${error.maxSeconds} s, the most one answer may be; ` +
        'nothing was sent. Send a shorter text, or use media/tts/speak/stream, which speaks the ' +
        `first ${error.maxSeconds} s.`,
      [{ max_seconds: error.maxSeconds }],
    ),
  ),
  rule(TextNotSpeakableError, (error) =>
    body(
      400,
      'text_not_speakable',
      `The synthesizer's voice speaks ${error.language} and cannot say "${error.character}" ` +
        `(U+${codePointOf(error.character)}, character ${error.index} of the text); nothing was ` +
        'synthesized. Send the text in Latin letters, or speak it with a provider of its language ' +
        '(TTS_PROVIDER).',
      [{ character: error.character, index: error.index, language: error.language }],
    ),
  ),
  rule(SpeechNotConfiguredError, (error) =>
    body(503, 'speech_not_configured', error.message, [{ settings: error.settings }]),
  ),
  rule(StorageUnavailableError, () => ({
    ...body(503, 'storage_unavailable', 'The conversation store is unavailable; retry shortly.'),
    headers: { 'Retry-After': '1' },
  })),
  rule(UntrustedWorkOverrunError, (error) =>
    error.work === 'start'
      ? body(
          422,
          'command_set_too_costly',
          "The registration could not be compiled within the server's limit of time and memory; " +
            'nothing was stored. Send fewer, simpler schemas.',
          [{ limit: error.limit, limit_ms: error.limitMs }],
        )
      : body(
          502,
          'reply_check_failed',
          "The model's reply could not be checked within the server's limit of time and " +
            'memory; nothing was handed out and the conversation is unchanged. Retry the request.',
          [{ limit: error.limit, limit_ms: error.limitMs }],
        ),
  ),
  rule(TurnTimeoutError, (error) =>
    body(504, 'turn_timeout', turnTimeoutMessage(error), [
      {
        deadline_ms: error.deadlineMs,
        model_calls: error.modelCalls,
        elapsed_ms: error.elapsedMs,
        suggested_deadline_ms: suggestedDeadlineMs(error.deadlineMs),
      },
    ]),
  ),
];

const INTERNAL = body(500, 'internal_error', 'Internal server error.');

export function mapError(error: unknown): MappedError {
  for (const [type, map] of RULES) {
    if (error instanceof type) return map(error as never);
  }
  return INTERNAL;
}
