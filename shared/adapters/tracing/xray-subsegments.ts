import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

/**
 * X-Ray subsegments for the calls a turn waits on (the model, DynamoDB), sent as independent
 * subsegment documents to the X-Ray daemon over UDP, the documented protocol the SDKs use. It is
 * a few hundred bytes where the X-Ray SDK with Powertools Tracer is 128 KB over the bundle budget
 * (docs/decisions/2026-11-23-tracing.md). Lambda gives each invocation its trace in
 * `_X_AMZN_TRACE_ID` and the daemon's address in `AWS_XRAY_DAEMON_ADDRESS`: both are the runtime's
 * per-invocation context, read when a call starts. Without them (tests, `npm start`) or when the
 * trace is not sampled, nothing is sent. Tracing never fails or slows a call: a send is fire and
 * forget.
 */
export interface SubsegmentFacts {
  readonly name: string;
  /** `aws` for an AWS service call, `remote` for any other (the model server). */
  readonly namespace: 'aws' | 'remote';
  readonly aws?: Readonly<Record<string, string>>;
  readonly http?: { readonly request: { readonly url: string; readonly method: string } };
}

interface TraceContext {
  readonly traceId: string;
  readonly parentId: string;
}

const HEADER = '{"format": "json", "version": 1}\n';
let socket: Socket | null = null;

/** Runs `call` and, when the invocation is traced, reports it as a subsegment of its segment. */
export async function traced<T>(facts: SubsegmentFacts, call: () => Promise<T>): Promise<T> {
  const trace = traceContext(process.env._X_AMZN_TRACE_ID);
  const daemon = daemonAddress(process.env.AWS_XRAY_DAEMON_ADDRESS);
  if (trace === null || daemon === null) return call();
  const startTime = Date.now() / 1000;
  let fault = false;
  try {
    return await call();
  } catch (error) {
    fault = true;
    throw error;
  } finally {
    send(daemon, {
      ...facts,
      id: randomBytes(8).toString('hex'),
      trace_id: trace.traceId,
      parent_id: trace.parentId,
      type: 'subsegment',
      start_time: startTime,
      end_time: Date.now() / 1000,
      ...(fault ? { fault: true } : {}),
    });
  }
}

/** `Root=1-...;Parent=...;Sampled=1`: the trace and parent ids, or null when not sampled. */
export function traceContext(header: string | undefined): TraceContext | null {
  const fields = new Map(
    (header ?? '').split(';').map((part) => part.split('=') as [string, string | undefined]),
  );
  const traceId = fields.get('Root');
  const parentId = fields.get('Parent');
  if (traceId === undefined || parentId === undefined || fields.get('Sampled') !== '1') return null;
  return { traceId, parentId };
}

function daemonAddress(value: string | undefined): { host: string; port: number } | null {
  // `host:port`, or `tcp:host:port udp:host:port`: the UDP one carries segments.
  const udp =
    value
      ?.split(' ')
      .find((part) => part.startsWith('udp:'))
      ?.slice(4) ?? value;
  const match = /^([\w.-]+):(\d+)$/.exec(udp ?? '');
  return match?.[1] === undefined ? null : { host: match[1], port: Number(match[2]) };
}

function send(daemon: { host: string; port: number }, document: object): void {
  socket ??= createSocket('udp4').unref();
  socket.send(`${HEADER}${JSON.stringify(document)}`, daemon.port, daemon.host, () => undefined);
}
