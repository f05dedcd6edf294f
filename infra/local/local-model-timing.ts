import { readSettings } from '../../shared/adapters/config/read-settings';
import { defaultWarmUpTimeoutMs } from '../../shared/adapters/config/settings-table';

/**
 * npm start's turn deadline for a model on this machine or the local network. Issue 21 measured a
 * cold first turn (skip_warmup_inference, the whole prompt) of 17.6 s (Q4_0) and 21.0 s (Q8_0),
 * 21.5 s at worst, on a small 2-core CPU at a load under 1. Twice the worst: the box may run
 * something else beside the model (a second busy core halves it), and 2 s to answer.
 */
export const LOCAL_MODEL_TURN_DEADLINE_MS = 45_000;

/**
 * And its warm-up timeout: a cold warm-up took 14.0 s (Q4_0) and 18.6 s (Q8_0), and 2 of 5 Q8_0
 * runs ran past the default 20 s. Twice that, and below the deadline.
 */
export const LOCAL_MODEL_WARMUP_TIMEOUT_MS = 40_000;

/** What npm start sets for the handlers, and why (the banner says it). */
export interface LocalModelTiming {
  /** The variables npm start sets because the user did not: the banner names them. */
  readonly variables: Readonly<Partial<Record<'TURN_DEADLINE_MS' | 'WARMUP_TIMEOUT_MS', string>>>;
}

/**
 * The deadline and warm-up timeout for a model at a loopback or private address, for whichever of
 * TURN_DEADLINE_MS and WARMUP_TIMEOUT_MS the user left unset (theirs always win). Nothing for a
 * model elsewhere (a hosted API answers within the handlers' defaults) or no model at all; the
 * same as a local address for the embedded model (`embedded`).
 */
export function localModelTiming(
  env: Readonly<Record<string, string | undefined>>,
  embedded = false,
): LocalModelTiming {
  const { values, given, refused } = readSettings(env);
  // The embedded model is a CPU model on this machine too.
  if (!embedded && !isLocalAddress(values.OPENAI_BASE_URL ?? '')) return { variables: {} };
  const variables: Partial<Record<'TURN_DEADLINE_MS' | 'WARMUP_TIMEOUT_MS', string>> = {};
  if (!given.has('TURN_DEADLINE_MS')) {
    variables.TURN_DEADLINE_MS = String(LOCAL_MODEL_TURN_DEADLINE_MS);
  }
  const deadlineMs = given.has('TURN_DEADLINE_MS')
    ? values.TURN_DEADLINE_MS
    : LOCAL_MODEL_TURN_DEADLINE_MS;
  // An invalid deadline is the configuration's to report; the warm-up is left alone then.
  if (!given.has('WARMUP_TIMEOUT_MS') && !refused.has('TURN_DEADLINE_MS')) {
    variables.WARMUP_TIMEOUT_MS = String(
      defaultWarmUpTimeoutMs(deadlineMs, LOCAL_MODEL_WARMUP_TIMEOUT_MS),
    );
  }
  return { variables };
}

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

/**
 * Whether a URL's host is this machine or the local network: loopback, the private, shared
 * (Tailscale's 100.64/10) and link-local ranges, IPv6 loopback, unique-local and link-local, and
 * local names (`localhost`, a name without a dot as in a compose file, `.local`, `.internal`...).
 */
export function isLocalAddress(baseURL: string): boolean {
  let host: string;
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[')) return isLocalIpv6(host.slice(1, -1));
  const octets = host.split('.').map(Number);
  if (octets.length === 4 && octets.every((octet) => Number.isInteger(octet))) {
    return isLocalIpv4(octets as [number, number, number, number]);
  }
  return (
    host === 'localhost' || !host.includes('.') || LOCAL_SUFFIXES.some((end) => host.endsWith(end))
  );
}

function isLocalIpv4([a, b]: readonly [number, number, number, number]): boolean {
  return (
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

function isLocalIpv6(host: string): boolean {
  return host === '::1' || /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host);
}
