import { compileCommandSet } from '../../params';
import { SERVER_TOOL_NAMES } from '../server-tools/server-tool-names';
import { step } from './step';
import type { UntrustedWork } from './untrusted-work';

/**
 * The untrusted work on the calling thread, unlimited: what the isolation worker runs, and what
 * unit tests of the use cases pass. Apart from untrusted-work.ts (the contract the main thread
 * imports) because it imports `step`: the main thread's bundle must not carry it.
 */
export const inThreadWork: UntrustedWork = {
  async compile(source) {
    const compiled = compileCommandSet(source, { reservedNames: SERVER_TOOL_NAMES });
    return compiled.ok
      ? { ok: true, hash: compiled.value.hash }
      : { ok: false, issues: compiled.issues };
  },
  async step(state, reply, context) {
    return step(state, reply, context);
  },
};
