// What a provider reply costs the server before and around its body, through Node's fetch and
// through providerFetch (node:http): a server sending its status line and headers a byte a
// millisecond, and an ordinary model call. The servers run in a child process, so only the
// client's CPU is counted. `npx tsx bench/provider-fetch-bench.ts`.
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { providerFetch } from '../shared/adapters/openai/provider-fetch';
import { REPLY_BODY_LIMIT_BYTES } from '../shared/adapters/openai/reply-body-limit';
import { listenOnFreePort } from '../test/support/free-port';
import type { BenchRow } from './bench-row';
import { percentile, roundTo } from './engine/percentile';
import { formatBenchTable } from './format-table';

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Bytes of headers dripped: under fetch's 16 KiB limit, so fetch parses them to the end. */
const DRIPPED_HEADER_BYTES = 3_000;
const DRIP_RUNS = 3;
const CALL_WARMUP = 200;
const CALLS = 2_000;
/** The server CPU anything a provider sends may cost a request beyond its documented work. */
const BUDGET_MS = 100;

/** The child: an ordinary model server and a dripping one, their ports sent to the parent. */
async function serve(): Promise<void> {
  const reply = JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Sunny.' } }],
  });
  const ordinary = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(reply);
    });
  });
  const dripping = createNetServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.once('data', () => {
      const head = Buffer.from(
        `HTTP/1.1 200 OK\r\nx-padding: ${'p'.repeat(DRIPPED_HEADER_BYTES)}\r\n` +
          `content-type: application/json\r\ncontent-length: ${reply.length}\r\n\r\n${reply}`,
      );
      let sent = 0;
      const drip = () => {
        if (socket.destroyed) return;
        if (sent === head.length) {
          socket.end();
          return;
        }
        socket.write(head.subarray(sent, sent + 1));
        sent += 1;
        setTimeout(drip, 1);
      };
      drip();
    });
  });
  process.send?.({
    ordinary: await listenOnFreePort(ordinary),
    dripping: await listenOnFreePort(dripping),
  });
}

/** CPU milliseconds of this process while `work` runs. */
async function cpuOf(work: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  await work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

async function readWhole(fetchOf: Fetch, url: string): Promise<void> {
  const response = await fetchOf(url, { method: 'POST', body: '{"model":"m"}' });
  await response.text();
}

export async function runProviderFetchBench(): Promise<BenchRow[]> {
  const child: ChildProcess = fork(new URL(import.meta.url), ['--serve'], { stdio: 'ignore' });
  try {
    const ports = await new Promise<{ ordinary: number; dripping: number }>((ready) =>
      child.once('message', (message) => ready(message as { ordinary: number; dripping: number })),
    );
    // Fetch's body is not counted (its reads are not ours to see); providerFetch counts the
    // model's limits as each read arrives, as every model call does.
    const transports: [string, Fetch][] = [
      ['fetch', fetch],
      ['providerFetch', providerFetch(REPLY_BODY_LIMIT_BYTES)],
    ];
    const rows: BenchRow[] = [];
    for (const [name, transport] of transports) {
      const ordinary = `http://127.0.0.1:${ports.ordinary}/v1/chat/completions`;
      for (let call = 0; call < CALL_WARMUP; call += 1) await readWhole(transport, ordinary);
      const drips: number[] = [];
      for (let run = 0; run < DRIP_RUNS; run += 1) {
        const dripping = `http://127.0.0.1:${ports.dripping}/v1/chat/completions`;
        drips.push(await cpuOf(() => readWhole(transport, dripping).catch(() => undefined)));
      }
      rows.push({
        name: `${name}: a reply's ${DRIPPED_HEADER_BYTES} bytes of headers dripped a byte/ms, CPU p50`,
        value: roundTo(percentile(drips, 0.5), 1),
        unit: 'ms',
        // Fetch's row is the figure before providerFetch, not a path the server takes.
        ...(name === 'providerFetch' ? { budget: BUDGET_MS } : {}),
      });
      const calls = await cpuOf(async () => {
        for (let call = 0; call < CALLS; call += 1) await readWhole(transport, ordinary);
      });
      rows.push({
        name: `${name}: an ordinary model call on loopback, CPU a call (${CALLS} calls)`,
        value: roundTo(calls / CALLS, 3),
        unit: 'ms',
      });
    }
    return rows;
  } finally {
    child.kill();
  }
}

if (process.argv.includes('--serve')) {
  await serve();
} else if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(formatBenchTable(await runProviderFetchBench()));
}
