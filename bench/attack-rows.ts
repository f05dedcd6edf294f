import { MULTIPLIED_SAMPLE_SIZE } from './attack-multiplied';
import type { BenchRow } from './bench-row';
import { percentile, roundTo } from './engine/percentile';

/** The goal: no request costs more than this of server CPU, whatever it carries. */
const CPU_BUDGET_MS = 100;

interface Worst {
  readonly cpuMs: number;
  readonly name: string;
}

/** What the attack bench measured, as the rows it prints. */
export function attackRows(measured: {
  /** With the figures of the same request in every warm round. */
  readonly worst: Worst & { readonly samples: readonly number[] };
  readonly worstMultiplied: Worst;
  readonly generated: Worst & {
    readonly samples: readonly number[];
    readonly big: readonly number[];
  };
  readonly coldestMs: number;
  readonly health: readonly number[];
}): BenchRow[] {
  const { worst, worstMultiplied, generated, coldestMs, health } = measured;
  return [
    {
      name: `attack: worst API CPU of one hostile request, warm (${worst.name})`,
      value: roundTo(worst.cpuMs, 1),
      unit: 'ms CPU',
      budget: CPU_BUDGET_MS,
    },
    {
      name: `attack: median CPU of that request over the ${worst.samples.length} warm rounds (its own work; the worst adds what landed on it, such as a collection of the heap)`,
      value: roundTo(percentile(worst.samples, 0.5), 1),
      unit: 'ms CPU',
    },
    {
      name: `attack: worst API CPU of one request of issue 18's rows, warm (${worstMultiplied.name})`,
      value: roundTo(worstMultiplied.cpuMs, 1),
      unit: 'ms CPU',
      budget: CPU_BUDGET_MS,
    },
    {
      name: `attack: worst API CPU of one generated multiplied request, warm (${MULTIPLIED_SAMPLE_SIZE} cases, seed 18: ${generated.name})`,
      value: roundTo(generated.cpuMs, 1),
      unit: 'ms CPU',
      budget: CPU_BUDGET_MS,
    },
    {
      name: 'attack: median CPU of one generated multiplied request, warm',
      value: roundTo(percentile(generated.samples, 0.5), 1),
      unit: 'ms CPU',
    },
    {
      name: `attack: worst CPU of a generated utterance with a reply over 2 MiB (${generated.big.length}, warm)`,
      value: roundTo(Math.max(...generated.big), 1),
      unit: 'ms CPU',
    },
    {
      name: 'attack: median CPU of a generated utterance with a reply over 2 MiB',
      value: roundTo(percentile(generated.big, 0.5), 1),
      unit: 'ms CPU',
    },
    {
      name: 'attack: worst CPU of one request in the first round (process warm-up included)',
      value: roundTo(coldestMs, 1),
      unit: 'ms CPU',
    },
    {
      name: 'attack: /health p50 during the attack',
      value: roundTo(percentile(health, 0.5), 1),
      unit: 'ms',
    },
    {
      name: 'attack: /health p99 during the attack',
      value: roundTo(percentile(health, 0.99), 1),
      unit: 'ms',
    },
    {
      name: 'attack: /health max during the attack',
      value: roundTo(Math.max(...health), 1),
      unit: 'ms',
    },
  ];
}
