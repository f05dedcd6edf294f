// `npm run load [-- --requests N --connections N]`: the local API under autocannon. Each
// connection plays one node's conversations, one full exchange after another (start, then
// voice/command -> tool_calls -> continue -> complete), against an instant scripted model. Prints
// latency per route, throughput and every error, then reads every conversation back from the
// store and counts the turns a 200 acknowledged that were lost. Exit 1 on any error or lost turn.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { exchangeRequests } from './exchange-requests';
import { LOAD_USAGE, type LoadOptions, parseLoadOptions } from './load-options';
import { LoadRecorder } from './load-recorder';
import { errorCount, formatLoadReport, lostTurns } from './load-report';
import { silenceOutput, startLoadStack } from './load-stack';
import { checkStore } from './store-check';
import { warmUp } from './warm-up';

function describeRun(options: LoadOptions): string {
  const [processor] = cpus();
  const [oneMinute = 0] = loadavg();
  return [
    `JCC load run, ${new Date().toISOString()}`,
    `node ${process.version}, ${processor?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, load average ${oneMinute.toFixed(2)}`,
    `${options.requests} requests over ${options.connections} connections, ${options.exchanges} exchanges per conversation, ${options.nodes} nodes, instant scripted model, dynalite in memory${options.requestIds ? ', a request_id on every voice request' : ''}`,
  ].join('\n');
}

async function main(): Promise<number> {
  const parsed = parseLoadOptions(process.argv.slice(2));
  if ('problem' in parsed) {
    console.error(`${parsed.problem}\n${LOAD_USAGE}`);
    return 2;
  }
  const { options } = parsed;
  console.log(describeRun(options));
  const output = silenceOutput();
  const service = await startLoadStack(options.nodes).catch((error: unknown) => {
    output.restore();
    throw error;
  });
  try {
    const [firstNode] = service.nodes;
    if (firstNode === undefined) throw new Error('the stack registered no node');
    await warmUp(service.stack.url, firstNode);
    const recorder = new LoadRecorder();
    const runId = `load-${randomBytes(4).toString('hex')}`;
    const result = await autocannon({
      url: service.stack.url,
      connections: options.connections,
      amount: options.requests,
      timeout: options.timeout,
      requests: exchangeRequests(
        options.exchanges,
        service.nodes,
        runId,
        recorder,
        options.requestIds,
      ),
    });
    output.restore();
    const model = service.model.stats();
    console.log(
      `nodes: ${service.nodes.map((node) => node.nodeId).join(', ')}; checking the store...`,
    );
    const store = await checkStore(
      service.stack.dynamoDbEndpoint,
      service.stack.tableName,
      recorder.conversations,
    );
    const figures = {
      recorder,
      driver: { timeouts: result.timeouts, errors: result.errors },
      model,
      store,
    };
    console.log(`\n${formatLoadReport(figures)}`);
    for (const warning of output.warnings) console.log(`service warning: ${warning.slice(0, 400)}`);
    return errorCount(figures) + lostTurns(store) > 0 ? 1 : 0;
  } finally {
    output.restore();
    await service.close();
  }
}

const exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 1;
});
// Exit explicitly once the output is flushed: an open socket must not keep the run alive.
process.stdout.write('', () => process.exit(exitCode));
