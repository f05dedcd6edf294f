import { performance } from 'node:perf_hooks';
import { SERVER_TOOL_NAMES } from '../../shared/conversation/server-tools/server-tool-names';
import { type CommandSetSource, commandSetHash, compileKnownCommandSet } from '../../shared/params';
import { percentile } from './percentile';

const WARMUP_LOOKUPS = 500;
const MEASURED_LOOKUPS = 2_000;

/**
 * Milliseconds (p50) that every turn spends getting its compiled command set back, done as
 * conversation-turn.ts does it: `compileKnownCommandSet` with the hash stored beside the source,
 * so a warm container neither parses nor hashes it. Beside the in-memory turn it shows that share.
 */
export function measureCommandSetLookup(source: CommandSetSource): number {
  const stored = JSON.stringify(source);
  const hash = commandSetHash(source);
  const samples: number[] = [];
  for (let lookup = 0; lookup < WARMUP_LOOKUPS + MEASURED_LOOKUPS; lookup += 1) {
    const startedAt = performance.now();
    const compiled = compileKnownCommandSet(hash, () => JSON.parse(stored), {
      reservedNames: SERVER_TOOL_NAMES,
    });
    const elapsed = performance.now() - startedAt;
    if (!compiled.ok) throw new Error('the stored registration no longer compiles');
    if (lookup >= WARMUP_LOOKUPS) samples.push(elapsed);
  }
  return percentile(samples, 0.5);
}
