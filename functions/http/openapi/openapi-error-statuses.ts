import { MAX_SPOKEN_SECONDS } from '../../../shared/ports/speech';
import { LIMITS } from '../contract/request-schemas';
import { SPEECH_LIMITS } from '../contract/speech-limits';

/** What each error status of the API means, as the OpenAPI document says it on every route. */
export const ERROR_STATUSES: Readonly<Record<string, string>> = {
  '400':
    'Not JSON, fails the request schema, an invalid command set, tool results that do not ' +
    'match, or an unknown time zone; an upload that is not valid multipart, has no `file` part ' +
    'or a broken WAV (invalid_multipart, missing_file, invalid_audio); a text to speak with a ' +
    'letter the synthesizer’s voice cannot say (text_not_speakable: the embedded one speaks ' +
    'English).',
  '401': 'Missing, malformed or wrong X-API-Key.',
  '404':
    'Conversation unknown, expired, or another node’s (conversation_not_found); a path no route ' +
    'serves (route_not_found).',
  '409':
    'The conversation changed during the request or another request’s turn holds it ' +
    '(conversation_conflict, retry), nothing is pending to continue, or a request with this ' +
    'request id or these same tool results is still running (request_in_progress: retry after ' +
    'Retry-After to get its answer).',
  '413':
    `Body larger than ${LIMITS.bodyBytes} bytes (payload_too_large), or a registration or ` +
    'exchange larger than a conversation can store (conversation_too_large); an upload over ' +
    `${SPEECH_LIMITS.uploadBytes} bytes, or a recording over ${SPEECH_LIMITS.recordingSeconds} s ` +
    '(recording_too_long); a text whose speech would last over ' +
    `${MAX_SPOKEN_SECONDS} s on media/tts/speak (speech_too_long).`,
  '415':
    'Content-Type is not application/json (multipart/form-data for an upload); a file that is ' +
    'not a 16-bit PCM WAV (unsupported_audio).',
  '429':
    'The node sent more than its fair share (NODE_RATE_LIMIT per NODE_RATE_WINDOW_SECONDS); ' +
    'retry after Retry-After seconds.',
  '502':
    'The language model failed after the allowed attempts (llm_failed), was throttled on every ' +
    'attempt (llm_throttled), or its cloud provider refused the call: the credentials ' +
    '(llm_credentials_rejected), the IAM policy (llm_permission_denied) or the model access ' +
    '(llm_model_access_denied); or the speech provider failed (speech_provider_failed) or, ' +
    'Amazon Transcribe, refused the credentials (speech_credentials_rejected), the IAM policy ' +
    '(speech_permission_denied) or a stream past its quota (speech_throttled).',
  '503':
    'No language model configured (local runs), the embedded model of a local run busy with a ' +
    'full queue (llm_busy, with Retry-After), no speech provider configured ' +
    '(speech_not_configured, naming the settings), every embedded synthesizer or the embedded ' +
    'recognizer busy (speech_busy, with Retry-After), or the store is unavailable.',
  '504':
    'The turn ran out of time (turn_timeout), or the function did before it could answer ' +
    '(function_timeout).',
};

/**
 * The local API and a function's dispatch answer a route's path with another method (HEAD aside,
 * which the local API serves as GET). In AWS, API Gateway answers that itself before any function
 * runs, as for an unknown path: 404 route_not_found (infra/stacks/gateway-responses.ts).
 */
export const methodNotAllowed = {
  description:
    'The path is served with another method only (method_not_allowed); `Allow` names it. ' +
    'Answered by the local API and sam local; the deployed API answers 404 route_not_found instead.',
  headers: {
    Allow: { description: 'The method this path is served with.', schema: { type: 'string' } },
  },
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/ErrorResponse' },
      example: {
        error: {
          code: 'method_not_allowed',
          message: 'Use POST on /api/v0/voice/command.',
          details: [],
        },
      },
    },
  },
};

/** Statuses only the voice routes answer: they take a request id. */
export const VOICE_ERROR_STATUSES: Readonly<Record<string, string>> = {
  '422':
    'The request id was used before in this conversation with a different body ' +
    '(request_id_reused), or was answered but its answer is no longer kept, a later one too ' +
    'large to keep both (answer_not_kept): nothing was run again.',
};
