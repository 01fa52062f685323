// Value agreement and the Markdown table of bench/e2e/run.mjs.

/** Relative tolerance between um's and numpy's values (issue 17's acceptance). */
export const TOLERANCE = 1e-9;

/**
 * Compares every numeric value both sides report: |a − b| / max(|a|, |b|) (0 when both are 0). Returns the largest
 * difference, the metrics above TOLERANCE with both values, and the metrics only one side has.
 */
export function agreement(um, ref, refName, keys) {
  if (um === null || ref === null)
    return {
      against: refName,
      checked: 0,
      maxRel: null,
      disagree: [],
      missing: um === null ? 'um output' : 'reference output',
    };
  const names = keys ?? Object.keys(ref).filter((k) => typeof ref[k] === 'number' && k !== 'n' && k !== 'numClasses');
  let maxRel = 0;
  let checked = 0;
  const disagree = [];
  const notInUm = [];
  for (const k of names) {
    const a = um[k];
    const b = ref[k];
    if (typeof a !== 'number') {
      notInUm.push(k);
      continue;
    }
    checked++;
    const scale = Math.max(Math.abs(a), Math.abs(b));
    const rel = scale === 0 ? 0 : Math.abs(a - b) / scale;
    maxRel = Math.max(maxRel, rel);
    if (!(rel <= TOLERANCE)) disagree.push({ metric: k, um: a, numpy: b, rel });
  }
  if (um.n !== undefined && ref.n !== undefined && um.n !== ref.n)
    disagree.push({ metric: 'n', um: um.n, numpy: ref.n, rel: 1 });
  disagree.sort((x, y) => y.rel - x.rel);
  return { against: refName, checked, maxRel, disagree, notInUm };
}

const f = (x, d) => (x === null || x === undefined ? '–' : x.toFixed(d));
const mb = (x) => (x === null || x === undefined ? '–' : String(Math.round(x)));

function valuesCell(a, streamed) {
  if (a.missing) return `no ${a.missing}`;
  if (a.checked === 0) return '–';
  if (a.disagree.length === 0) return `✓ (≤ ${a.maxRel.toExponential(0)})`;
  if (streamed)
    return `✗ bounded stream: ${a.disagree.length} metrics, up to ${a.disagree[0].metric} ${a.disagree[0].rel.toExponential(1)}`;
  const shown = a.disagree
    .slice(0, 4)
    .map((d) => `${d.metric} ${d.rel.toExponential(1)}`)
    .join(', ');
  return `✗ ${shown}${a.disagree.length > 4 ? `, +${a.disagree.length - 4}` : ''}`;
}

/** How a difference compares with the error bound um itself reports for a streamed (bounded) value, if any. */
function boundNote(row, d) {
  const bounds = row.um.bounds;
  if (!bounds || !(d.metric in bounds)) return '';
  const b = bounds[d.metric];
  const diff = Math.abs(d.um - d.numpy);
  if (b === null) return `; |Δ| ${diff.toExponential(2)}, um states no bound`;
  return `; |Δ| ${diff.toExponential(2)} ${diff <= b ? 'within' : '**beyond**'} um's bound ${b.toExponential(2)}`;
}

/** The benchmark table (docs/benchmarks.md): one line per row (and per extra numpy competitor), ratios = numpy wall / um wall. */
export function markdown(report, before) {
  const m = report.machine;
  const lines = [
    `${report.date.slice(0, 10)} · ${m.cores} × ${m.cpu}, ${m.memoryGB} GB · Node ${m.node} · numpy ${m.numpy} (Python ${m.python}) · median of ${report.repeats}, interleaved · commit ${report.commit?.slice(0, 7)}${report.dirty ? ' (dirty)' : ''}`,
    '',
  ];
  if (before?.date === report.date) before = null; // the baseline itself
  const prior = new Map((before?.rows ?? []).map((r) => [r.id, r]));
  const head = [
    'row',
    'file MB',
    'um s',
    'um RSS MB',
    'RSS / file',
    'MB/s',
    'numpy script',
    'numpy s',
    'numpy RSS MB',
    'numpy / um',
    'values vs numpy',
  ];
  if (before) head.splice(3, 0, 'um s before');
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  for (const r of report.rows) {
    const comps = r.numpy.length > 0 ? r.numpy : [null];
    comps.forEach((c, i) => {
      const cells = [
        i === 0 ? `\`${r.id}\`` : '″',
        i === 0 ? f(r.fileMB, r.fileMB < 10 ? 1 : 0) : '',
        i === 0 ? f(r.um.medianWall, 2) + (r.um.errors.length ? ' (error)' : '') : '',
        i === 0 ? mb(r.um.medianRssMB) : '',
        i === 0 ? f(r.um.medianRssMB / r.fileMB, 2) : '',
        i === 0 ? f(r.MBps, 1) : '',
        c ? c.script : `(check: ${r.agreement.against ?? '–'})`,
        c ? f(c.medianWall, 2) : '',
        c ? mb(c.medianRssMB) : '',
        c ? `**${f(c.ratio, 2)}×**` : '',
        i === 0 ? valuesCell(r.agreement, r.um.streamed?.mode === 'bounded') : '',
      ];
      if (before) cells.splice(3, 0, i === 0 ? f(prior.get(r.id)?.um.medianWall, 2) : '');
      lines.push(`| ${cells.join(' | ')} |`);
    });
  }
  const all = report.rows.flatMap((r) =>
    r.agreement.disagree.map(
      (d) =>
        `- \`${r.id}\` ${d.metric}: um ${d.um} vs numpy ${d.numpy} (relative ${d.rel.toExponential(2)}${boundNote(r, d)})`,
    ),
  );
  if (all.length > 0) lines.push('', `Values that differ from numpy's by more than ${TOLERANCE} relative:`, ...all);
  return lines.join('\n');
}

/** The rows the README shows (issue 17's targets), in this order, with the numpy competitor each is read against. */
export const README_ROWS = [
  ['50000x1000/default', 'numpy_full.py', '50 000 × 1 000 probabilities (.npy, float32), default flags'],
  ['50000x1000/no-classwise', 'numpy_core.py --set eight', 'the same, `--no-classwise`, against the eight-metric set'],
  ['100000x100/default', 'numpy_full.py', '100 000 × 100 probabilities, default flags'],
  ['1000000x10/default', 'numpy_full.py', '1 000 000 × 10 probabilities, default flags'],
  ['50000x1000/logits', 'numpy_full.py', '50 000 × 1 000 logits, `--input logits`'],
  ['temperature/50000x1000', 'numpy_temperature.py', '`um calibrate fit --method temperature`, 50 000 × 1 000 logits'],
  ['csv/10000000x10', null, '10 000 000 × 10 CSV (1.2 GB), default flags'],
];

/**
 * The README's short speed table: the issue's target rows of a results file, um's and numpy's median wall times,
 * the ratio (numpy / um) and um's peak memory over the file size. `npm run bench` measures; `node bench/e2e/run.mjs
 * --render --readme` prints this block, and test/docs/readme.test.ts checks that the README holds it.
 */
export function readmeTable(report) {
  const m = report.machine;
  const byId = new Map(report.rows.map((r) => [r.id, r]));
  const lines = [
    `Measured ${report.date.slice(0, 10)} on ${m.cores} × ${m.cpu} cores (${m.memoryGB} GB), Node ${m.node.replace(/^v/, '')}, numpy ${m.numpy}; the whole process, median of ${report.repeats}, interleaved (commit ${report.commit?.slice(0, 7)}). Above 1×, \`um\` is faster.`,
    '',
    '| what `um` runs | um | numpy | numpy / um | um peak memory / file |',
    '|---|---|---|---|---|',
  ];
  for (const [id, script, what] of README_ROWS) {
    const r = byId.get(id);
    if (r === undefined) continue;
    const c = r.numpy.find((x) => x.script === script);
    const cells = [
      what,
      c ? `${f(r.um.medianWall, 2)} s` : `${f(r.um.medianWall, 2)} s (${f(r.MBps, 0)} MB/s)`,
      c ? `${f(c.medianWall, 2)} s` : 'not run',
      c ? `**${f(c.ratio, 2)}×**` : '–',
      `${f(r.um.medianRssMB / r.fileMB, 2)}×`,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const shown = README_ROWS.map(([id]) => byId.get(id)).filter((r) => r !== undefined);
  const differ = shown.filter((r) => r.agreement.disagree.length > 0 || r.agreement.missing);
  const largest = Math.max(...shown.map((r) => r.agreement.maxRel ?? 0));
  lines.push(
    '',
    differ.length === 0
      ? `Every value \`um\` printed in these runs agrees with numpy's within ${largest.toExponential(0)} relative (checked against 1e-9).`
      : `Values differing from numpy's by more than 1e-9 relative: ${differ.map((r) => `\`${r.id}\``).join(', ')} (see the full table).`,
  );
  return lines.join('\n');
}
