/** One measured figure of a benchmark, with the budget it must stay within if it has one. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  budget?: number;
}
