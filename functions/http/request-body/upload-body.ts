import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Recording } from '../../../shared/ports/speech';
import type { RouteUpload } from '../contract/api-routes';
import { SPEECH_LIMITS } from '../contract/speech-limits';
import { HttpError } from '../errors/http-error';
import { refuseLargerThan } from './body-size';
import { FORM_LIMITS, readMultipartFile } from './multipart-file';
import { checkRecording, type RecordingIssue } from './recording-check';
import type { RequestBody } from './validate-request';

type EdgeMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

const MULTIPART = /^multipart\/form-data\s*;/i;

/** 415 for a file that is not the audio we take, 400 for a WAV that is broken, 413 too long. */
const WAV_STATUS: Readonly<Record<RecordingIssue['code'], readonly [number, string]>> = {
  not_pcm_wav: [415, 'unsupported_audio'],
  unsupported_sample_width: [415, 'unsupported_audio'],
  unsupported_format: [415, 'unsupported_audio'],
  no_audio_data: [400, 'invalid_audio'],
  too_long: [413, 'recording_too_long'],
};

/**
 * A WAV recording uploaded as `multipart/form-data` (the node's `files={"file": ...}`): the
 * media type (415) and the size as sent (413) are checked before anything is parsed; the form is
 * parsed by @fastify/busboy (multipart-file.ts), then the file checked as a 16-bit PCM
 * WAV (recording-check.ts). API Gateway sends such a body base64-encoded (a binary media
 * type), `npm start` too.
 */
export function wavUpload(upload: RouteUpload): RequestBody<Recording> {
  const accepted = new WeakMap<APIGatewayProxyEvent, Recording>();
  const guard: EdgeMiddleware = {
    before: ({ event }) => {
      const contentType = event.headers?.['content-type'] ?? '';
      if (!MULTIPART.test(contentType.trim())) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          `Send the recording as multipart/form-data with a "${upload.part}" part.`,
        );
      }
      refuseLargerThan(event, upload.limitBytes, 'upload');
    },
  };
  const parse: EdgeMiddleware = {
    before: async ({ event }) => {
      const bytes = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
      const file = await filePart(bytes, event.headers?.['content-type'] ?? '', upload);
      const parsed = checkRecording(file, { maxSeconds: SPEECH_LIMITS.recordingSeconds });
      if (!parsed.ok) {
        const [first] = parsed.issues;
        const [status, code] =
          first === undefined ? [400, 'invalid_audio'] : WAV_STATUS[first.code];
        throw new HttpError(status, code, first?.message ?? 'The recording is invalid.', [
          ...parsed.issues.map((issue) => ({ part: upload.part, problem: issue.code })),
        ]);
      }
      accepted.set(event, parsed.value);
    },
  };
  return {
    middlewares: [guard, parse],
    read: (event) => {
      const recording = accepted.get(event);
      if (recording === undefined) throw new Error('the upload middleware did not run');
      return recording;
    },
  };
}

async function filePart(
  body: Buffer,
  contentType: string,
  upload: RouteUpload,
): Promise<Uint8Array> {
  const read = await readMultipartFile(body, contentType, upload.part, upload.limitBytes);
  if (read.ok) return read.file;
  if (read.problem === 'invalid_multipart') {
    throw new HttpError(400, 'invalid_multipart', 'The body is not valid multipart/form-data.');
  }
  if (read.problem === 'too_many_parts') {
    throw new HttpError(
      400,
      'invalid_multipart',
      `The form has more than ${FORM_LIMITS.parts} parts (or ${FORM_LIMITS.files} files, ` +
        `${FORM_LIMITS.fields} fields); send the recording as the one file part "${upload.part}".`,
      [{ limit_parts: FORM_LIMITS.parts }],
    );
  }
  throw new HttpError(400, 'missing_file', `The form has no file part named "${upload.part}".`, [
    { part: upload.part, problem: read.problem },
  ]);
}
