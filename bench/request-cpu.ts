/** Reads the API process's CPU (every thread), in µs. */
export type CpuMeter = () => Promise<number>;

/** What one request cost: its status and the API's CPU until the API was idle again. */
export interface MeasuredRequest {
  readonly status: number;
  readonly cpuMs: number;
}

/** The API counts as idle once it spends less than this in one SETTLE_STEP_MS. */
const IDLE_MICROS = 300;
const SETTLE_STEP_MS = 15;
/** A request still working after this is a finding of its own: the figure then says so. */
const MAX_SETTLE_MS = 1_000;

/**
 * The CPU the API spent from the request's start until it was idle again after answering: work
 * a request leaves running (a worker restarted, a garbage collection it caused) is its own, not
 * the next request's. Each meter reading costs the API a few µs, counted too.
 */
export async function measureRequest(
  meter: CpuMeter,
  send: () => Promise<number>,
): Promise<MeasuredRequest> {
  const before = await meter();
  const status = await send();
  let last = await meter();
  for (let waited = 0; waited < MAX_SETTLE_MS; waited += SETTLE_STEP_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
    const now = await meter();
    const idle = now - last < IDLE_MICROS;
    last = now;
    if (idle) break;
  }
  return { status, cpuMs: (last - before) / 1000 };
}
