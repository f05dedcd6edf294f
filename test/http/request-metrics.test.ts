import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { describe, expect, it } from 'vitest';
import { requestMetrics } from '../../functions/http/edge/request-metrics';
import { ROUTES } from '../support/api-client';
import { NODE_A, useLocalStack } from '../support/local-stack-harness';
import { conversationIdFor, fixtureStartBody } from './http-fixtures';

const harness = useLocalStack({ languageModel: false });

interface EmfLine {
  readonly _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
  readonly [key: string]: unknown;
}

/** The embedded-metric-format lines Powertools wrote since `from` (one per published buffer). */
function emfLinesSince(from: number): EmfLine[] {
  return harness.output
    .slice(from)
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{"_aws"'))
    .map((line) => JSON.parse(line) as EmfLine);
}

describe('metrics of concurrent requests to one function (the local server, like the tests)', () => {
  it('each request publishes its own metrics once, with its own route, and nothing warns', async () => {
    // Prepare: requests that wait on DynamoDB inside the route (start), two routes of one function
    // (node-helpers), and refusals before any route.
    const from = harness.output.length;
    const client = harness.client();
    const anonymous = harness.client({ nodeId: NODE_A.nodeId, key: 'wrong' });

    // Act
    const responses = await Promise.all([
      ...Array.from({ length: 8 }, (_, index) =>
        client.post(ROUTES.start, fixtureStartBody(conversationIdFor(`metrics-${index}`))),
      ),
      ...Array.from({ length: 8 }, () => client.post(ROUTES.acknowledge, { voice_command: 'hi' })),
      ...Array.from({ length: 8 }, () => client.get(ROUTES.dateContext)),
      ...Array.from({ length: 4 }, () => anonymous.get(ROUTES.dateContext)),
    ]);
    const lines = emfLinesSince(from);
    const written = harness.output.slice(from).join('');

    // Assess
    expect(responses.map((response) => response.status).sort()).toEqual([
      ...Array(24).fill(200),
      ...Array(4).fill(401),
    ]);
    expect(written).not.toContain('has already been added');
    expect(written).not.toContain('No application metrics to publish');
    const perLine = lines.map((line) => ({
      route: line.route ?? null,
      dimensions: line._aws.CloudWatchMetrics[0]?.Dimensions[0]?.sort(),
      metrics: line._aws.CloudWatchMetrics[0]?.Metrics.map((metric) => metric.Name).sort(),
      latency: line.latency,
    }));
    const answered = perLine.filter((line) => line.metrics?.includes('latency'));
    expect(answered).toHaveLength(24);
    for (const line of answered) {
      expect(line.dimensions).toEqual(['route', 'service']);
      // One sample: a buffer shared by two requests would hold an array of both latencies.
      expect(typeof line.latency).toBe('number');
    }
    expect(answered.filter((line) => line.route === 'conversation-start')).toHaveLength(8);
    expect(answered.filter((line) => line.route === 'voice-acknowledge')).toHaveLength(8);
    expect(answered.filter((line) => line.route === 'date-context')).toHaveLength(8);
    // Refused at the edge, before the route ran: still counted for the route they were aimed at.
    const refused = perLine.filter((line) => !line.metrics?.includes('latency'));
    expect(refused).toEqual(
      Array(4).fill({
        route: 'date-context',
        dimensions: ['route', 'service'],
        metrics: ['status_401'],
        latency: undefined,
      }),
    );
  });
  it('a buffer that served one request serves the next with nothing of it left', async () => {
    // Prepare: buffers released by a concurrent batch, then requests of other routes one by one.
    const client = harness.client();
    await Promise.all(
      Array.from({ length: 4 }, () => client.post(ROUTES.acknowledge, { voice_command: 'hi' })),
    );
    const from = harness.output.length;

    // Act
    const statuses = [];
    for (const index of [0, 1, 2]) {
      statuses.push((await client.get(ROUTES.dateContext)).status);
      const started = await client.post(
        ROUTES.start,
        fixtureStartBody(conversationIdFor(`metrics-reuse-${index}`)),
      );
      statuses.push(started.status);
    }
    const lines = emfLinesSince(from);

    // Assess: each line names its own route once, with only the route and service dimensions.
    expect(statuses).toEqual(Array(6).fill(200));
    expect(harness.output.slice(from).join('')).not.toContain('has already been added');
    expect(lines.map((line) => line.route)).toEqual(
      Array(3).fill(['date-context', 'conversation-start']).flat(),
    );
    for (const line of lines) {
      expect(line._aws.CloudWatchMetrics[0]?.Dimensions[0]?.sort()).toEqual(['route', 'service']);
      expect(typeof line.latency).toBe('number');
    }
  });
});

describe('a request that ended in an error', () => {
  it("keeps its buffer: what its handler adds later never lands in the next request's", async () => {
    // Prepare: a request's buffer, then an error (middy's early timeout answers while the
    // handler goes on); the handler still holds the buffer it was given.
    const perRequest = requestMetrics(new Metrics({ namespace: 'Jcc', serviceName: 'jcc' }));
    const failed = {};
    const next = {};
    const edge = perRequest.middleware;
    await edge.before?.({ context: failed } as never);
    const held = perRequest.of(failed);
    held.addDimension('route', 'voice-command');

    // Act
    await edge.onError?.({ context: failed } as never);
    held.addMetric('latency', MetricUnit.Milliseconds, 29_000);
    await edge.before?.({ context: next } as never);
    const nextBuffer = perRequest.of(next);
    await edge.after?.({ context: next } as never);

    // Assess
    expect(nextBuffer).not.toBe(held);
    expect(nextBuffer.hasStoredMetrics()).toBe(false);
  });
});
