import { randomUUID } from 'node:crypto';
import { routePath } from '../functions/http/contract/api-routes';
import { fixtureStartBody } from '../test/http/http-fixtures';
import type { CountedRequest } from '../test/support/counting-dynamodb-client';
import type { BenchRow } from './bench-row';
import { percentile } from './engine/percentile';
import {
  type Posted,
  type Stages,
  startTurnStack,
  TURN_NODE,
  type TurnStack,
} from './http-turn-stack';

const WARM_UP_TURNS = 20;
const TURNS = 200;
/** Each outcome off the common path, measured this many times after the turns. */
const OUTCOME_SAMPLES = 5;
export const TURN_ROUTES = {
  start: routePath('conversation-start'),
  command: routePath('voice-command'),
  continue: routePath('voice-command-continue'),
} as const;

/** One request of the exchange: its route and outcome, how long, which DynamoDB requests it made. */
interface Measured {
  readonly route: string;
  readonly outcome: string;
  readonly milliseconds: number;
  readonly requests: readonly CountedRequest[];
  readonly stages: Stages;
}

/**
 * What the server adds to a turn: voice/command (one tool call) then continue (the answer), over
 * real HTTP through the real handlers against dynalite and the instant scripted model, as
 * `npm start` runs them (http-turn-stack.ts). Prints the p50 and p99 of the turn and of each
 * route, and how many DynamoDB requests each route and outcome makes (counted on the client),
 * the outcomes off the common path (replays, conflicts, errors) included.
 */
export async function runHttpTurnBench(): Promise<{ rows: BenchRow[]; details: string[] }> {
  const rows: BenchRow[] = [];
  const details: string[] = [];
  const stack = await startTurnStack();
  try {
    const { turns, measured, cpuMs } = await warmTurns(stack);
    const warmTurnEntries = measured.length;
    for (let sample = 0; sample < OUTCOME_SAMPLES; sample += 1) {
      measured.push(...(await offTheCommonPath(stack, sample)));
    }
    rows.push(...turnRows(turns, 'instant model, dynalite'));
    // CPU is what a shared machine disturbs least: the process's, every thread, per warm turn
    // (the server, dynalite and the scripted model all run here, as with npm start).
    rows.push({
      name: 'HTTP turn CPU of the process (server, dynalite, model), mean per turn',
      value: cpuMs,
      unit: 'ms',
    });
    for (const [label, group] of groupByLabel(measured)) {
      const milliseconds = group.map((entry) => entry.milliseconds);
      rows.push({
        name: `HTTP ${label} p50`,
        value: Number(percentile(milliseconds, 0.5).toFixed(2)),
        unit: 'ms',
      });
    }
    await checkProtocol(stack);
    const warm = measured.slice(0, warmTurnEntries);
    details.push(stageTable(warm), requestTable(measured));
  } finally {
    await stack.close();
  }
  // The same turns with dynalite and the model in processes of their own, as DynamoDB and a
  // model server are in AWS: what is left in this process is the server's work (and the client's).
  const apart = await startTurnStack({ apart: true });
  try {
    const { turns, cpuMs } = await warmTurns(apart);
    rows.push(...turnRows(turns, 'instant model and dynalite in processes of their own'));
    rows.push({
      name: 'HTTP turn CPU of the server process (dynalite and model apart), mean per turn',
      value: cpuMs,
      unit: 'ms',
    });
    await checkProtocol(apart);
  } finally {
    await apart.close();
  }
  return { rows, details };
}

/**
 * The bench's conversation, its warm-up, then TURNS turns of voice/command (one tool call) and
 * continue (the answer), every other one with request ids and every tenth continue resent: each
 * warm turn's time, each request measured, and this process's CPU per warm turn.
 */
async function warmTurns(
  stack: TurnStack,
): Promise<{ turns: number[]; measured: Measured[]; cpuMs: number }> {
  const measured: Measured[] = [];
  const conversationId = `bench-${randomUUID()}`;
  await expect(stack, 'start', TURN_ROUTES.start, fixtureStartBody(conversationId), 200);
  const turns: number[] = [];
  let cpuAtFirstWarmTurn: NodeJS.CpuUsage | null = null;
  for (let turn = 0; turn < WARM_UP_TURNS + TURNS; turn += 1) {
    const warm = turn >= WARM_UP_TURNS;
    if (turn === WARM_UP_TURNS) cpuAtFirstWarmTurn = process.cpuUsage();
    const withId = turn % 2 === 1;
    const suffix = withId ? ', with request_id' : '';
    const asked = await expect(stack, 'voice/command', TURN_ROUTES.command, {
      conversation_id: conversationId,
      voice_command: `set a timer [turn ${turn}]`,
      ...(withId ? { request_id: `turn-${turn}-command` } : {}),
    });
    const callId = (asked.body as { tool_calls: { id: string }[] }).tool_calls[0]?.id;
    const results = {
      conversation_id: conversationId,
      tool_results: [{ tool_call_id: callId, output: { success: true } }],
      ...(withId ? { request_id: `turn-${turn}-continue` } : {}),
    };
    const answered = await expect(stack, 'continue', TURN_ROUTES.continue, results);
    // A resend of the same request now and then (with its id): what a replay costs.
    const replay =
      turn % 10 === 1
        ? await expect(stack, 'continue', TURN_ROUTES.continue, results, 200, true)
        : null;
    if (!warm) continue;
    turns.push(asked.milliseconds + answered.milliseconds);
    measured.push(
      { route: 'voice/command', outcome: `tool calls${suffix}`, ...asked },
      { route: 'continue', outcome: `answer${suffix}`, ...answered },
    );
    if (replay !== null) measured.push({ route: 'continue', outcome: 'replayed', ...replay });
  }
  const cpu = process.cpuUsage(cpuAtFirstWarmTurn ?? undefined);
  return { turns, measured, cpuMs: Number(((cpu.user + cpu.system) / 1000 / TURNS).toFixed(2)) };
}

function turnRows(turns: readonly number[], where: string): BenchRow[] {
  return [
    ['p50', 0.5],
    ['p99', 0.99],
  ].map(([name, quantile]) => ({
    name: `HTTP turn (voice/command + continue, ${where}) ${name}`,
    value: Number(percentile(turns, quantile as number).toFixed(2)),
    unit: 'ms',
  }));
}

/** A bench that sent the model a request the real API would refuse measured nothing. */
async function checkProtocol(stack: TurnStack): Promise<void> {
  const stats = await stack.model();
  if (stats.protocolViolations > 0) {
    throw new Error(`the model saw a malformed request: ${stats.firstViolation}`);
  }
}

/**
 * The outcomes a node meets less often, each on a fresh conversation whose turn is answered:
 * a start, a voice/command replayed, a continue with nothing pending, a request id reused with
 * another body, a conversation another request holds, an unknown conversation, a refused key.
 */
async function offTheCommonPath(stack: TurnStack, sample: number): Promise<Measured[]> {
  const conversationId = `bench-outcomes-${randomUUID()}`;
  const started = await expect(stack, 'start', TURN_ROUTES.start, fixtureStartBody(conversationId));
  const ask = {
    conversation_id: conversationId,
    voice_command: `set a timer [outcome ${sample}]`,
    request_id: `outcome-${sample}-command`,
  };
  const asked = await expect(stack, 'voice/command', TURN_ROUTES.command, ask);
  const replayedAsk = await expect(stack, 'voice/command', TURN_ROUTES.command, ask, 200, true);
  const callId = (asked.body as { tool_calls: { id: string }[] }).tool_calls[0]?.id;
  const results = (output: unknown, requestId: string) => ({
    conversation_id: conversationId,
    tool_results: [{ tool_call_id: callId, output }],
    request_id: requestId,
  });
  await expect(stack, 'continue', TURN_ROUTES.continue, results({ success: true }, 'answer'));
  const nothingPending = await expect(
    stack,
    'continue',
    TURN_ROUTES.continue,
    results({ success: false }, 'late'),
    409,
  );
  const reused = await expect(
    stack,
    'continue',
    TURN_ROUTES.continue,
    results({ success: 'other' }, 'answer'),
    422,
  );
  // Another request's turn holds the conversation (its claim, set as that request would).
  const held = await stack.store.claim(TURN_NODE.nodeId, conversationId, {
    requestId: 'another-request',
    fingerprint: 'another-body',
    heldUntil: Date.now() + 60_000,
  });
  stack.counting.take();
  const conflict = await expect(
    stack,
    'voice/command',
    TURN_ROUTES.command,
    { ...ask, request_id: `outcome-${sample}-held` },
    409,
  );
  if (held.claimed) await stack.store.release(TURN_NODE.nodeId, conversationId, held.token);
  const unknown = await expect(
    stack,
    'voice/command',
    TURN_ROUTES.command,
    { ...ask, conversation_id: `bench-unknown-${randomUUID()}` },
    404,
  );
  const refused = await expect(stack, 'voice/command', TURN_ROUTES.command, ask, 401, false, {
    apiKey: `${TURN_NODE.nodeId}:not-the-key`,
  });
  return [
    { route: 'conversation/start', outcome: 'new conversation', ...started },
    { route: 'voice/command', outcome: 'replayed', ...replayedAsk },
    { route: 'continue', outcome: '409 nothing_pending', ...nothingPending },
    { route: 'continue', outcome: '422 request_id_reused', ...reused },
    { route: 'voice/command', outcome: '409 conversation_conflict', ...conflict },
    { route: 'voice/command', outcome: '404 conversation_not_found', ...unknown },
    { route: 'voice/command', outcome: '401 unauthorized (key refused)', ...refused },
  ];
}

/** POSTs and checks the status and whether it was a replay: a bench of failures measures nothing. */
async function expect(
  stack: TurnStack,
  label: string,
  path: string,
  body: unknown,
  status = 200,
  replayed = false,
  options: { readonly apiKey?: string } = {},
): Promise<Posted> {
  const posted = await stack.post(path, body, options.apiKey);
  if (posted.status !== status || posted.replayed !== replayed) {
    throw new Error(
      `${label}: ${posted.status} (replayed ${posted.replayed}), expected ${status} (replayed ${replayed}): ${JSON.stringify(posted.body)}`,
    );
  }
  return posted;
}

function groupByLabel(measured: readonly Measured[]): Map<string, Measured[]> {
  const groups = new Map<string, Measured[]>();
  for (const entry of measured) {
    const label = `${entry.route} (${entry.outcome})`;
    groups.set(label, [...(groups.get(label) ?? []), entry]);
  }
  return groups;
}

/**
 * Per route and outcome of the warm turns: the p50 of each stage (stages of one request add up to
 * its total; their p50s nearly do). Client and HTTP: the total less the server's time.
 */
function stageTable(measured: readonly Measured[]): string {
  const p50 = (group: readonly Measured[], of: (entry: Measured) => number) =>
    percentile(group.map(of), 0.5).toFixed(2);
  const lines = [
    "Where a warm request's time goes, p50 per stage in ms: from the server receiving it to its response sent (Node's HTTP diagnostics channel); within it, the DynamoDB client's sends (the client's work and the round trips, timed around the counted client's send), the model call on the wire (the provider transport's request, created to its reply's end) and of it the scripted model's own handling; the server's own is the rest (the edge, the engine, the worker's checks, the items' JSON and compression, the openai SDK's request and reply)",
    '',
    "| route | outcome | total | client and HTTP | server's own | DynamoDB sends | model call on the wire | of it, the model's own |",
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const group of groupByLabel(measured).values()) {
    const first = group[0];
    if (first === undefined || first.outcome === 'replayed') continue;
    const columns = [
      p50(group, (entry) => entry.milliseconds),
      p50(group, (entry) => entry.milliseconds - entry.stages.server),
      p50(group, ({ stages }) => stages.server - stages.dynamodb - stages.modelCall),
      p50(group, ({ stages }) => stages.dynamodb),
      p50(group, ({ stages }) => stages.modelCall),
      p50(group, ({ stages }) => stages.modelServer),
    ];
    lines.push(`| ${first.route} | ${first.outcome} | ${columns.join(' | ')} |`);
  }
  return lines.join('\n');
}

const OPERATIONS = ['GetItem', 'PutItem', 'UpdateItem', 'Query'] as const;

/** `UpdateItem rate`: the operation and the kind of item (its sort key's prefix, lower case). */
const described = ({ operation, key }: CountedRequest): string => {
  const sortKey = key.split(' ')[1] ?? '';
  const kind = sortKey.split('#')[0]?.toLowerCase() ?? '';
  return kind === '' ? operation : `${operation} ${kind}`;
};

/** Per route and outcome: the DynamoDB requests of one request (the median), by operation. */
function requestTable(measured: readonly Measured[]): string {
  const lines = [
    "DynamoDB requests per HTTP request, counted at the client (median per route and outcome; the node registry read is cached 10 s; the rate-limit window is written by the first request of a block, a twentieth of the limit: 6 requests at the default 120, 5,000 at the bench's 100,000; items: node = registry, rate = the rate-limit window, conversation)",
    '',
    `| route | outcome | requests | ${OPERATIONS.join(' | ')} | other | in order, by item |`,
    `|---|---|---|${OPERATIONS.map(() => '---|').join('')}---|---|`,
  ];
  for (const group of groupByLabel(measured).values()) {
    const totals = group.map((entry) => entry.requests.length);
    const median = percentile(totals, 0.5);
    const typical = group.find((entry) => entry.requests.length === median) ?? group[0];
    if (typical === undefined) continue;
    const count = (operation: string) =>
      typical.requests.filter((request) => request.operation === operation).length;
    const other = typical.requests.filter(
      (request) => !(OPERATIONS as readonly string[]).includes(request.operation),
    );
    lines.push(
      `| ${typical.route} | ${typical.outcome} | ${median} | ${OPERATIONS.map(count).join(' | ')} | ${other.map((request) => request.operation).join(', ') || '-'} | ${typical.requests.map(described).join(', ') || '-'} |`,
    );
  }
  return lines.join('\n');
}
