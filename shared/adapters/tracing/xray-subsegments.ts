import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { getXrayTraceDataFromEnv } from '@aws-lambda-powertools/commons/utils/env';
import { systemTiming, type Timing } from '../system/timing';
import { faultOutcome, type SubsegmentOutcome } from './subsegment-outcome';

/**
 * X-Ray subsegments for the calls a turn waits on (the model, DynamoDB), sent as independent
 * subsegment documents to the X-Ray daemon over UDP, the documented protocol the SDKs use. It is
 * a few hundred bytes where the X-Ray SDK with Powertools Tracer is 128 KB over the bundle budget
 * (docs/decisions/2026-11-23-tracing.md). The invocation's trace is read as Powertools reads it
 * (the Lambda invoke store first, then `_X_AMZN_TRACE_ID`), the daemon's address from
 * `AWS_XRAY_DAEMON_ADDRESS`, when a call starts. Without them (tests, `npm start`) or when the
 * trace is not sampled, nothing is sent. Tracing never fails or slows a call: a send is fire and
 * forget.
 */
export interface SubsegmentFacts {
  /** Sanitized to what X-Ray accepts (see `subsegmentName`). */
  readonly name: string;
  /** `aws` for an AWS service call, `remote` for any other (the model server). */
  readonly namespace: 'aws' | 'remote';
  readonly aws?: Readonly<Record<string, string>>;
  readonly http?: { readonly request: { readonly url: string; readonly method: string } };
  /** How a failure of this call shows (fault, error, throttle); a fault when absent. */
  readonly outcome?: (error: unknown) => SubsegmentOutcome;
  /** The clock of the subsegment's start and end; the system's by default. */
  readonly timing?: Pick<Timing, 'now'>;
}

interface TraceContext {
  readonly traceId: string;
  readonly parentId: string;
}

const HEADER = '{"format": "json", "version": 1}\n';
let socket: Socket | null = null;

/** Runs `call` and, when the invocation is traced, reports it as a subsegment of its segment. */
export async function traced<T>(facts: SubsegmentFacts, call: () => Promise<T>): Promise<T> {
  const trace = traceContext(getXrayTraceDataFromEnv());
  const daemon = daemonAddress(process.env.AWS_XRAY_DAEMON_ADDRESS);
  if (trace === null || daemon === null) return call();
  const { outcome: judge, timing = systemTiming, name, ...described } = facts;
  const startTime = timing.now() / 1000;
  let outcome: SubsegmentOutcome | null = null;
  try {
    return await call();
  } catch (error) {
    outcome = judge === undefined ? faultOutcome : judge(error);
    throw error;
  } finally {
    send(daemon, {
      ...described,
      name: subsegmentName(name),
      id: randomBytes(8).toString('hex'),
      trace_id: trace.traceId,
      parent_id: trace.parentId,
      type: 'subsegment',
      start_time: startTime,
      end_time: timing.now() / 1000,
      ...outcome,
    });
  }
}

/**
 * A name X-Ray accepts: at most 200 of Unicode letters, digits, spaces and `_ . : / % & # = + \ - @`;
 * X-Ray rejects a segment with any other. `model qwen2.5:7b (Q4)` becomes `model qwen2.5:7b Q4`.
 */
export function subsegmentName(name: string): string {
  const kept = name.replace(/\s/g, ' ').replace(/[^\p{L}\p{N} _.:/%&#=+\\@-]/gu, '');
  return kept.trim() === '' ? 'unnamed' : kept.slice(0, 200);
}

/** The trace data of the invocation (`Root`, `Parent`, `Sampled`), or null when not sampled. */
export function traceContext(data: Record<string, string> | undefined): TraceContext | null {
  const traceId = data?.Root;
  const parentId = data?.Parent;
  if (traceId === undefined || parentId === undefined || data?.Sampled !== '1') return null;
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
