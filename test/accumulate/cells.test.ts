import { it, expect } from 'vitest';
import { cellOf, cellRange, cellCount } from '../../src/accumulate/cells.js';
it('cells', () => {
  const m = 8;
  console.log(cellCount(m));
  let prev = -1;
  for (let i = 0; i <= 100000; i++) { const x = i / 100000; const c = cellOf(x, m); expect(c).toBeGreaterThanOrEqual(prev); prev = c; const [lo, hi] = cellRange(c, m); expect(x >= lo && x <= hi, `${x} ${c} ${lo} ${hi}`).toBe(true); }
  for (const x of [0, 1e-300, 1e-13, 0.25, 0.5, 0.5-1e-17, 0.75, 1-1e-16, 1]) { const c = cellOf(x, m); console.log(x, c, cellRange(c, m)); }
});
