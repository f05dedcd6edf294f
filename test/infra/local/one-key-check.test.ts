import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURN_ROUTES } from '../../../bench/http-turn-bench';
import { startTurnStack, TURN_NODE, type TurnStack } from '../../../bench/http-turn-stack';
import { providedByNpmStart } from '../../../functions/wiring/npm-start-provisions';
import { FakeTiming } from '../../support/fake-timing';

/** The registry reads among `requests`: GetItem of a node's record. */
const registryReads = (requests: readonly { operation: string; key: string }[]) =>
  requests.filter((request) => request.operation === 'GetItem' && request.key.endsWith(' NODE'));

describe('npm start checks a node key once, for its server and the handler', () => {
  const timing = new FakeTiming();
  let stack: TurnStack;

  beforeAll(async () => {
    stack = await startTurnStack({ authTiming: timing });
  });
  afterAll(() => stack.close());

  it('refuses an unknown key with one registry read and one refusal floor, the handler answering', async () => {
    // Prepare
    const waitsBefore = timing.sleeps.length;
    const ask = { conversation_id: 'any', voice_command: 'hello' };

    // Act
    const refused = await stack.post(TURN_ROUTES.command, ask, 'ghost-node:some-key');

    // Assess: the error table's answer, as the handler gives it.
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: 'unauthorized', details: [] } });
    expect(registryReads(refused.requests)).toHaveLength(1);
    expect(timing.sleeps.length - waitsBefore).toBe(1);
  });

  it("lets a node's request through with one registry read between the server and the handler", async () => {
    // Prepare: the node's first request, so no cache holds its record yet.
    const ask = { conversation_id: 'never-started', voice_command: 'hello' };

    // Act: past authentication (and the rate limit) to the conversation, which does not exist.
    const answered = await stack.post(TURN_ROUTES.command, ask);

    // Assess
    expect(answered.status).toBe(404);
    expect(registryReads(answered.requests).map((request) => request.key)).toEqual([
      `NODE#${TURN_NODE.nodeId} NODE`,
    ]);
  });
});

describe('a stopped npm start takes its authenticator back from the handlers', () => {
  it('leaves no authenticator provided once the stack is closed', async () => {
    // Prepare
    const stack = await startTurnStack();
    const provided = providedByNpmStart('authenticator');

    // Act
    await stack.close();

    // Assess
    expect(provided).not.toBeNull();
    expect(providedByNpmStart('authenticator')).toBeNull();
  });
});
