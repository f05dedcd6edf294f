import { exchangeRequests, type LoadNode } from './exchange-requests';
import { LoadRecorder } from './load-recorder';

/**
 * One full exchange before the measured run, through the same request sequence, so the figures
 * are of a warm service: modules loaded, the command set compiled and cached, sockets open.
 * Throws if it does not succeed: a load run against a broken service measures nothing.
 */
export async function warmUp(baseUrl: string, node: LoadNode): Promise<void> {
  const recorder = new LoadRecorder();
  const [start, command, resume] = exchangeRequests(1, [node], 'warm-up', recorder);
  const context: Record<string, unknown> = {};
  for (const step of [start, command, resume]) {
    const request = step?.setupRequest?.({}, context);
    if (request === null || request === undefined || request.path === undefined) {
      throw new Error('warm-up: the previous step of the exchange failed');
    }
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: 'POST',
      headers: request.headers ?? {},
      body: request.body ?? null,
    });
    const body = await response.text();
    step?.onResponse?.(response.status, body, context, {});
    if (response.status !== 200) {
      throw new Error(
        `warm-up: ${request.path} answered ${response.status}: ${body.slice(0, 300)}`,
      );
    }
  }
  if (recorder.unexpected.length > 0) {
    throw new Error(`warm-up: ${recorder.unexpected[0]?.reason ?? 'unexpected reply'}`);
  }
}
