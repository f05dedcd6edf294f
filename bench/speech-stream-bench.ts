// Time to the first audio byte of voice/command/stream: the real voice-stream handler (edge,
// turn, dynalite, the embedded Flite synthesizer of `npm start`) with the instant model, from the
// event in to the first PCM byte out of Lambda's response stream (the local runtime's copy): the
// server's own time for a one-sentence spoken answer. `npx tsx bench/speech-stream-bench.ts`.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { StreamingHandler } from '../functions/http/edge/stream-responses';
import { createServiceDependencies } from '../functions/wiring/create-service-dependencies';
import { localLambdaContext, toApiGatewayEvent } from '../infra/local/api-gateway-event';
import { startEmbeddedDynamoDb } from '../infra/local/embedded-dynamodb';
import {
  installLambdaStreamingGlobals,
  invokeStreaming,
} from '../infra/local/lambda-response-streaming';
import { readServiceConfig } from '../shared/adapters/config/service-config';
import { DynamoDbNodeRegistry } from '../shared/adapters/dynamodb';
import { createDynamoDbClient } from '../shared/adapters/dynamodb/client';
import { createTableIfMissing } from '../shared/adapters/dynamodb/table';
import { hashNodeKey } from '../shared/adapters/node-key';
import { EmbeddedFliteTextToSpeech } from '../shared/adapters/speech/embedded-flite-text-to-speech';
import { randomIds, systemClock, systemRandomness } from '../shared/adapters/system/system-clock';
import { startConversation } from '../shared/conversation/use-cases/start-conversation';
import type { BenchRow } from './bench-row';
import { fixtureRegistration } from './engine/fixture-registration';
import { InstantLanguageModel } from './engine/instant-model';
import { percentile, roundTo } from './engine/percentile';
import { reply } from './engine/scripted-replies';
import { formatBenchTable } from './format-table';

const WARMUP = 5;
const RUNS = 40;
/** A fresh conversation every so many turns, so the history stays the size of a real one. */
const TURNS_PER_CONVERSATION = 8;
/** The goal of issue 17: server time to the first audio byte, one sentence, at p50. */
const BUDGET_MS = 150;
const ANSWER = 'Tomorrow will be sunny, with a high of twenty one degrees.';
const NODE = { nodeId: 'bench-node', key: 'bench-key' } as const;
const PATH = '/api/v0/voice/command/stream';

export async function runSpeechStreamBench(): Promise<BenchRow[]> {
  installLambdaStreamingGlobals();
  // Every request publishes its metrics as a log line: not what is measured, nor wanted here.
  const metricsDisabled = process.env.POWERTOOLS_METRICS_DISABLED;
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const database = await startEmbeddedDynamoDb({ port: 0 });
  const client = createDynamoDbClient({ region: 'us-east-1', endpoint: database.endpoint });
  try {
    const tableName = 'jcc-bench-speech';
    await createTableIfMissing(client, tableName, { pollIntervalMs: 10 });
    await new DynamoDbNodeRegistry({ client, tableName }).put({
      nodeId: NODE.nodeId,
      keyHash: hashNodeKey(NODE.key),
      timezone: 'America/New_York',
      room: 'kitchen',
      name: 'bench',
      enabled: true,
    });
    const model = new InstantLanguageModel(() => reply(ANSWER));
    const dependencies = createServiceDependencies({
      config: readServiceConfig({
        TABLE_NAME: tableName,
        DYNAMODB_ENDPOINT: database.endpoint,
        AWS_REGION: 'us-east-1',
        NODE_RATE_LIMIT: '0',
        AUTH_REJECTION_FLOOR_MS: '0',
        WARMUP_TIMEOUT_MS: '0',
      }),
      apiKey: null,
      clock: systemClock,
      ids: randomIds,
      random: systemRandomness,
      model,
      logger: new Logger({ serviceName: 'jcc', logLevel: 'SILENT' }),
      metrics: new Metrics({ namespace: 'Jcc', serviceName: 'jcc' }),
      speech: { speechToText: null, textToSpeech: new EmbeddedFliteTextToSpeech({ voice: 'slt' }) },
    });
    // Imported only now: the function calls `awslambda.streamifyResponse` as it loads.
    const { createHandler }: { createHandler: (d: typeof dependencies) => StreamingHandler } =
      await import('../functions/voice-stream');
    const handler = createHandler(dependencies);
    const firstByte: number[] = [];
    const whole: number[] = [];
    let conversationId = '';
    for (let run = 0; run < WARMUP + RUNS; run += 1) {
      if (run % TURNS_PER_CONVERSATION === 0) {
        conversationId = `bench-speech-${run}`;
        await startConversation(dependencies.conversation, {
          node: { nodeId: NODE.nodeId, timezone: 'America/New_York', room: 'kitchen' },
          conversationId,
          requestTimezone: null,
          commands: fixtureRegistration(),
        });
      }
      const event = toApiGatewayEvent({
        method: 'POST',
        path: PATH,
        query: new URLSearchParams(),
        headers: {
          'content-type': 'application/json',
          'x-api-key': `${NODE.nodeId}:${NODE.key}`,
        },
        body: Buffer.from(
          JSON.stringify({
            conversation_id: conversationId,
            voice_command: 'will it be sunny tomorrow',
          }),
        ),
        sourceIp: '127.0.0.1',
      });
      const start = performance.now();
      const response = await invokeStreaming(
        handler,
        event,
        localLambdaContext('voice-stream', 29_000),
      );
      const iterator = response.body[Symbol.asyncIterator]();
      const first = await iterator.next();
      const firstMs = performance.now() - start;
      let bytes = first.value?.length ?? 0;
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
        bytes += next.value.length;
      }
      const wholeMs = performance.now() - start;
      // A benchmark that timed the 202 path would quote a number about nothing.
      if (response.statusCode !== 200 || bytes === 0) {
        throw new Error(`voice/command/stream answered ${response.statusCode} with ${bytes} bytes`);
      }
      if (run < WARMUP) continue;
      firstByte.push(firstMs);
      whole.push(wholeMs);
    }
    return [
      {
        name: `voice/command/stream first audio byte, instant model + Flite (p50 of ${RUNS})`,
        value: roundTo(percentile(firstByte, 0.5), 1),
        unit: 'ms',
        budget: BUDGET_MS,
      },
      {
        name: 'voice/command/stream first audio byte (p90)',
        value: roundTo(percentile(firstByte, 0.9), 1),
        unit: 'ms',
      },
      {
        name: 'voice/command/stream last audio byte (p50)',
        value: roundTo(percentile(whole, 0.5), 1),
        unit: 'ms',
      },
    ];
  } finally {
    client.destroy();
    await database.close();
    if (metricsDisabled === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
    else process.env.POWERTOOLS_METRICS_DISABLED = metricsDisabled;
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(formatBenchTable(await runSpeechStreamBench()));
}
