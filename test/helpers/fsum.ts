/** Shewchuk/Python math.fsum, kept as an independent reference for src/math/exactSum.ts (a copy of the old state sum). */
/**
 * An exactly rounded running sum (Shewchuk's non-overlapping partials, as Python's `math.fsum`): the value is the
 * correctly rounded sum of every number added, whatever the order and grouping — so states merged in any order
 * give bit-identical results. Non-finite values are summed apart (∞ + x = ∞, ∞ − ∞ = NaN). Internal; plain data
 * in JSON (`partials`, `special`).
 */
export class Fsum {
  /** Non-overlapping partial sums, increasing magnitude. */
  partials: number[] = [];
  /** Sum of the non-finite values added (0 when none). */
  special = 0;

  add(x: number): void {
    if (!Number.isFinite(x)) {
      this.special += x;
      return;
    }
    const p = this.partials;
    let i = 0;
    for (let j = 0; j < p.length; j++) {
      let y = p[j] as number;
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) p[i++] = lo;
      x = hi;
    }
    if (!Number.isFinite(x)) {
      // the exact sum overflowed: keep it as a special value
      p.length = 0;
      this.special += x;
      return;
    }
    // truncate to the i partials kept, then append x (pop, not a length write: that was most of this sum's time)
    while (p.length > i) p.pop();
    p.push(x);
  }

  /** Adds every partial of another sum (exact). */
  addSum(other: Fsum): void {
    for (const x of other.partials) this.add(x);
    this.special += other.special;
  }

  /** The correctly rounded sum (round half to even, as `math.fsum`). */
  value(): number {
    if (this.special !== 0 || Number.isNaN(this.special)) return this.special;
    const p = this.partials;
    let n = p.length;
    if (n === 0) return 0;
    let hi = p[--n] as number;
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = p[--n] as number;
      hi = x + y;
      const yr = hi - x;
      lo = y - yr;
      if (lo !== 0) break;
    }
    // half-way case: the remaining partials decide the direction of rounding
    if (n > 0 && ((lo < 0 && (p[n - 1] as number) < 0) || (lo > 0 && (p[n - 1] as number) > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }

  toJSON(): { partials: number[]; special: number | string } {
    return {
      partials: [...this.partials],
      special: Number.isFinite(this.special) ? this.special : String(this.special),
    };
  }

  static fromJSON(json: { partials: number[]; special: number | string }): Fsum {
    const s = new Fsum();
    s.partials = json.partials.map(Number);
    s.special = Number(json.special);
    return s;
  }
}
