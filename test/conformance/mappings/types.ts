import type { ConformanceCase } from '../../helpers/conformance.js';

export type Compute = (c: ConformanceCase) => unknown;

/** Which of our calls computes the same quantity as a peer's golden metric. */
export interface Mapping {
  peer: string;
  metric: string;
  compute: Compute;
  /** What we do where the peer raised (documented behaviour, tested instead of the peer's exception). */
  onPeerError?: (c: ConformanceCase) => void;
  /**
   * Named exceptions: where the peer computes another quantity (the reason, and our call computing the peer's
   * quantity), where rounding is amplified (the reason and the tolerance that holds), or where we throw by design
   * while the peer returns a number (`throws`: the UMError code our `compute` must raise).
   */
  exceptions?: (
    c: ConformanceCase,
  ) => { reason: string; compute?: Compute; tolerance?: number; throws?: string } | undefined;
  /** Tolerance when the golden entry has no out_dtype (object values): 1e-6 for float32 peers. */
  tolerance?: number;
  /** Maps our result's keys to the golden object's keys (e.g. mutualInformation → mutual_information). */
  keys?: Record<string, string>;
}
