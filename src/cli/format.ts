/** Formats a metric value for the terminal: 6 decimals, or scientific for tiny non-zero values. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 1e-4) return v.toExponential(3);
  return v.toFixed(6);
}

/** Renders rows as a left-aligned text table with a header and a rule. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, j) => Math.max(h.length, ...rows.map((r) => (r[j] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, j) => c.padEnd(widths[j] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export { classCount } from '../report/classCount.js';
