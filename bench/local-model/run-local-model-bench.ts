// The child process of the `local` bench suite: the local API wires its handlers once per process
// from process.env, so it cannot share a process with another suite's stack. Prints the rows as
// one JSON line after RESULT_MARKER.
import { LOCAL_MODEL_PROFILES } from '../../test/support/scripted-llm/latency-profile';
import type { BenchRow } from '../bench-row';
import { runLocalModelScenarios } from './local-model-scenarios';
import { startLocalModelStack } from './local-model-stack';

export const RESULT_MARKER = 'LOCAL_MODEL_ROWS ';

const profiles = [LOCAL_MODEL_PROFILES.q4_0, LOCAL_MODEL_PROFILES.q8_0];
const stack = await startLocalModelStack(profiles[0] ?? LOCAL_MODEL_PROFILES.q4_0);
const rows: BenchRow[] = [];
try {
  for (const profile of profiles) {
    stack.model.useProfile(profile);
    rows.push(...(await runLocalModelScenarios(stack, profile)));
  }
} finally {
  await stack.close();
}
process.stdout.write(`${RESULT_MARKER}${JSON.stringify(rows)}\n`, () => process.exit(0));
