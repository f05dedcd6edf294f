import type { ApiRoute, RouteSuccess } from '../contract/api-routes';

/**
 * What the OpenAPI document says of a route's bodies beyond JSON: a multipart upload in, audio out
 * (a WAV file, or raw PCM with its format in `X-Audio-*`), and the 202 JSON a stream route falls
 * back to.
 */

export const jsonContent = (schema: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
});

const replayedHeader = {
  'Idempotent-Replayed': {
    description:
      '`true` when this is the recorded response to an earlier request with the same id.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const audioHeaders = {
  'X-Audio-Sample-Rate': {
    description: 'Samples per second of the PCM.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'X-Audio-Channels': { description: 'Interleaved channels.', schema: { type: 'string' } },
  'X-Audio-Sample-Width': {
    description: 'Bytes per sample (2: signed 16-bit little-endian).',
    schema: { type: 'string' },
  },
};

const assistantMessageHeader = {
  'X-Assistant-Message': {
    description: 'The spoken answer’s text, URL-encoded (what the node shows or logs).',
    schema: { type: 'string' },
  },
};

/** A route's success: JSON of a named schema, or audio (PCM with its format in `X-Audio-*`). */
export function successResponse(route: ApiRoute, success: RouteSuccess) {
  if ('body' in success) {
    return {
      description: success.status === 202 ? 'Accepted: JSON, no audio.' : 'Success.',
      ...(route.takesRequestId ? { headers: replayedHeader } : {}),
      content: jsonContent(success.body),
    };
  }
  const pcm = success.audio === 'audio/pcm';
  return {
    description: pcm
      ? 'Raw PCM (signed, little-endian), streamed as it is synthesized.'
      : 'The speech as one WAV file (16-bit PCM).',
    ...(pcm
      ? {
          headers: {
            ...audioHeaders,
            ...(route.requestBody === 'SpeakRequest' ? {} : assistantMessageHeader),
            ...(route.takesRequestId ? replayedHeader : {}),
          },
        }
      : {}),
    content: { [success.audio]: { schema: { type: 'string', contentMediaType: success.audio } } },
  };
}

/** The request body: JSON of a named schema, or a multipart upload. */
export function requestBodyOf(route: ApiRoute) {
  if (route.upload !== undefined) {
    const { mediaType, part, fileType, limitBytes } = route.upload;
    return {
      required: true,
      description: `At most ${limitBytes} bytes.`,
      content: {
        [mediaType]: {
          schema: {
            type: 'object',
            required: [part],
            properties: { [part]: { type: 'string', contentMediaType: fileType } },
          },
          encoding: { [part]: { contentType: fileType } },
        },
      },
    };
  }
  return route.requestBody === null
    ? null
    : { required: true, content: jsonContent(route.requestBody) };
}
