import { Metrics } from '@aws-lambda-powertools/metrics';
import type { MetricsOptions } from '@aws-lambda-powertools/metrics/types';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

export interface RequestMetrics {
  /** Opens a request's buffer before the other middlewares and publishes it once at its end. */
  readonly middleware: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;
  /** The buffer of the request this Lambda context belongs to. */
  of(context: unknown): Metrics;
}

/**
 * One Metrics buffer per request, with the namespace and default dimensions (`service`) of the
 * function's instance, published once when the request ends, as Powertools' logMetrics does.
 * In Lambda a container serves one request at a time, but the local server and the tests run a
 * function's requests concurrently: one shared buffer would give one request's metrics another's
 * `route` ("Dimension route has already been added") and publish them with the wrong request.
 * A buffer published at a request's normal end is empty again (metrics, dimensions, metadata)
 * and serves the next request: a new Metrics builds a Console of its own, the largest cost of a
 * request's metrics. One published on an error is dropped: the handler may still be running
 * (middy's early timeout answers while it goes on) and adds to the buffer it holds.
 */
export function requestMetrics(functionMetrics: Metrics): RequestMetrics {
  const options = optionsOf(functionMetrics);
  const open = new WeakMap<object, Metrics>();
  const idle: Metrics[] = [];
  const of = (context: unknown): Metrics => {
    const key = context as object;
    let metrics = open.get(key);
    if (metrics === undefined) {
      metrics = idle.pop() ?? new Metrics(options);
      open.set(key, metrics);
    }
    return metrics;
  };
  const publish = (context: unknown): Metrics | undefined => {
    const metrics = open.get(context as object);
    if (metrics === undefined) return undefined;
    open.delete(context as object);
    if (metrics.hasStoredMetrics()) {
      metrics.publishStoredMetrics();
    } else {
      metrics.clearDimensions();
      metrics.clearMetadata();
    }
    return metrics;
  };
  const reuse = (metrics: Metrics | undefined) => {
    if (metrics !== undefined) idle.push(metrics);
  };
  return {
    middleware: {
      before: ({ context }) => void of(context),
      after: ({ context }) => reuse(publish(context)),
      onError: ({ context }) => void publish(context),
    },
    of,
  };
}

/** What a fresh instance needs to emit as the function's does: its namespace and dimensions. */
function optionsOf(metrics: Metrics): MetricsOptions {
  // The function's instance never buffers anything, so this reads its settings and nothing else.
  const emf = metrics.serializeMetrics();
  const [directive] = emf._aws.CloudWatchMetrics;
  const names = directive?.Dimensions[0] ?? [];
  const { service, ...defaultDimensions } = Object.fromEntries(
    names.map((name) => [name, String(emf[name])]),
  );
  return {
    ...(directive === undefined ? {} : { namespace: directive.Namespace }),
    ...(service === undefined ? {} : { serviceName: service }),
    defaultDimensions,
  };
}
