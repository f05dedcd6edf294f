import {
  NodeAuthenticator,
  type RequestAuthenticator,
  unauthorized,
} from '../../functions/http/edge/node-authenticator';
import { HttpError } from '../../functions/http/errors/http-error';
import { provideToHandlers } from '../../functions/wiring/npm-start-provisions';
import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import {
  createDynamoDbClient,
  type DynamoDbClient,
  DynamoDbNodeRegistry,
} from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';
import type { Timing } from '../../shared/adapters/system/timing';
import type { CallingNode } from '../../shared/conversation';

/** The local server's check of `X-API-Key`, from the headers, once for the server and its handler. */
export interface HeaderAuthenticator {
  /**
   * The key's node, or null when it is refused (answered no sooner than the refusal floor).
   * Throws what the handlers answer when the registry cannot say (503 storage_unavailable).
   */
  check(apiKey: string | undefined): Promise<CallingNode | null>;
  /** Hands the handler given `event` (built from the request checked) the verdict `check` reached. */
  vouch(event: object, node: CallingNode | null): void;
}

/** The one npm start makes: the stack takes it back when it stops. */
export interface SharedHeaderAuthenticator extends HeaderAuthenticator {
  /** Takes the authenticator back from the handlers and closes the client it made (if it did). */
  close(): void;
}

/**
 * The one authenticator of `npm start` (its registry, cache and refusal floor): the local server
 * checks the key with it from the headers, before it reads a byte of the body, and every handler
 * wired after this shares it (functions/wiring/npm-start-provisions.ts) and takes the server's
 * verdict for the request: a key is looked up once and a refused one waits out the floor once.
 * The client is one of `config`'s own and the timing the system's unless given (a benchmark
 * counts the client's requests, a test the floor's waits).
 */
export function headerAuthenticator(
  config: ServiceConfig,
  options: { readonly client?: DynamoDbClient; readonly timing?: Timing } = {},
): SharedHeaderAuthenticator {
  const own = options.client === undefined;
  const client =
    options.client ??
    createDynamoDbClient({
      region: config.region,
      ...(config.dynamoDbEndpoint === null ? {} : { endpoint: config.dynamoDbEndpoint }),
    });
  const authenticator = new NodeAuthenticator(
    new DynamoDbNodeRegistry({ client, tableName: config.tableName }),
    options.timing ?? systemClock,
    {
      rejectionFloorMs: config.authRejectionFloorMs,
      ...(options.timing === undefined ? {} : { timing: options.timing }),
    },
  );
  // The verdicts the server reached, by the event object it built from the request: only the
  // holder of that object can vouch for it, and it is collected with the request.
  const vouched = new WeakMap<object, CallingNode | null>();
  const forHandlers: RequestAuthenticator = {
    authenticate: async (header, event) => {
      const verdict = vouched.get(event);
      if (verdict === null) throw unauthorized();
      return verdict ?? authenticator.authenticate(header);
    },
  };
  provideToHandlers('authenticator', forHandlers);
  return {
    check: async (apiKey) => {
      try {
        return await authenticator.authenticate(apiKey);
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 401) return null;
        throw error;
      }
    },
    vouch: (event, node) => vouched.set(event, node),
    close: () => {
      provideToHandlers('authenticator', null);
      if (own) client.destroy();
    },
  };
}
