import type { ServerResponse } from 'node:http';
import type { StreamedBodyStep } from './script-types';

/**
 * Writes the step's body chunk by chunk, each after the client took the previous one (backpressure),
 * so that what `written` counts is what the client read, give or take the socket buffers.
 */
export function streamBody(step: StreamedBodyStep, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.from(step.streamedBody.chunk);
  let left = step.streamedBody.times;
  const writeMore = () => {
    while (left > 0 && !response.destroyed) {
      left -= 1;
      step.written.bytes += chunk.byteLength;
      if (!response.write(chunk)) {
        response.once('drain', writeMore);
        return;
      }
    }
    if (!response.destroyed) {
      response.end();
      step.written.finished = true;
    }
  };
  writeMore();
}
