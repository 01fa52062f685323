/**
 * The report in a real browser: headless Debian Chromium driven by playwright-core, on the README's main job and on a
 * binary task. No console errors, no network requests, every chart has a size, the metrics table shows the numbers
 * of `um metrics --json` with an interval under each, the summary and comparison are there, and each reliability
 * diagram's text matches what is drawn (bars, lines, the smooth curve with its band, the histogram's two lines, the
 * class-wise panels), and the equal-mass view sits beside the equal-width one. With UM_SCREENSHOTS=1 it saves
 * screenshots to test/.artifacts/ (for a person to look at: they assert nothing, and took ~2.6 s of Chromium's CPU).
 *
 * The README's main job is built once, with its default flags, by the installed bin as a real process (what only a
 * process shows: the bin link, its exit code and output, the file written in its working directory, the progress bar
 * on a terminal), and that file is what the browser opens: the suite's one build of the default report.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, um, umProcess } from '../helpers/cli.js';
import { CHROMIUM, named, skip } from '../helpers/requirements.js';

type Page = Awaited<ReturnType<Awaited<ReturnType<typeof chromium.launch>>['newPage']>>;

/** Opens `file` in a fresh page; returns the page with the console problems and requests seen while loading. */
async function open(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  file: string,
): Promise<{ page: Page; problems: string[]; requests: string[]; url: string }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems, requests, url };
}

/**
 * Every chart has a size; every table cell the value of `um metrics --json` and an interval holding it; the smooth
 * diagram's band of `band` resamples (100 by default, fewer with a smaller --resamples).
 */
async function checkPage(page: Page, files: string[], charts: number, binary: boolean, band = 100): Promise<void> {
  const sizes = await page.$$eval('figure > svg', (svgs) =>
    svgs.map((s) => {
      const r = s.getBoundingClientRect();
      return [r.width, r.height];
    }),
  );
  expect(sizes).toHaveLength(charts);
  for (const [w, h] of sizes) {
    expect(w).toBeGreaterThan(300);
    expect(h).toBeGreaterThan(200);
  }
  const cells = await page.$$eval('#metrics td[data-metric]', (tds) =>
    tds.map((td) => ({
      metric: td.getAttribute('data-metric'),
      model: Number(td.getAttribute('data-model')),
      value: td.getAttribute('data-value'),
      text: td.firstChild?.textContent ?? '',
      lower: td.querySelector('.ci')?.getAttribute('data-lower'),
      upper: td.querySelector('.ci')?.getAttribute('data-upper'),
      shown: td.querySelector('.ci')?.textContent,
    })),
  );
  for (const [model, file] of files.entries()) {
    const expected = JSON.parse(
      (await um(['metrics', file, '--json', ...(binary ? ['--binary'] : [])])).stdout,
    ) as Record<string, unknown>;
    const mine = cells.filter((c) => c.model === model);
    expect(mine.length).toBe(17);
    for (const c of mine) {
      const v = expected[c.metric as string] as number;
      expect(Number(c.value), c.metric ?? '').toBe(v);
      expect(Math.abs(Number.parseFloat(c.text) - v)).toBeLessThan(5e-7);
      // the interval is present, shown, and holds the estimate
      expect(c.shown, c.metric ?? '').toMatch(/^\[[-\d.e]+, [-\d.e]+\]$/);
      expect(Number(c.lower) <= v && v <= Number(c.upper), `${c.metric}: ${c.lower} ${v} ${c.upper}`).toBe(true);
    }
  }
  expect(await page.textContent('#metrics-section .how')).toMatch(
    /95% bootstrap interval \(\d+ resamples of the rows, seed 0; BCa/,
  );
  // each calibration diagram: the text describes what the SVG draws
  const diagrams = await page.$$eval('section[data-drawn]', (sections) =>
    sections.map((s) => ({
      id: s.id,
      drawn: s.getAttribute('data-drawn'),
      how: s.querySelector('.how')?.textContent ?? '',
      rects: s.querySelectorAll('svg .mark-rect.role-mark path').length,
      lines: s.querySelectorAll('svg .mark-line.role-mark path').length,
      areas: s.querySelectorAll('svg .mark-area.role-mark path').length,
      points: s.querySelectorAll('svg .mark-symbol.role-mark path').length,
      rules: s.querySelectorAll('svg .mark-rule.role-mark line').length,
      text: s.querySelector('svg')?.textContent ?? '',
      legend: Array.from(s.querySelectorAll('svg .role-legend-label text')).map(
        (t) => (t as { textContent: string | null }).textContent,
      ),
    })),
  );
  // two classes: relplot's curve of P(y = 1) beside the positive-class diagram; else of the confidence
  expect(diagrams.map((d) => d.id)).toEqual([
    ...(binary ? ['chart-positive-class', 'chart-smooth'] : []),
    'chart-reliability',
    'chart-reliability-equal-mass',
    ...(binary ? [] : ['chart-smooth']),
    'chart-histogram',
    ...(binary ? [] : ['chart-classwise']),
    'chart-uncertainty',
  ]);
  const models = files.length;
  for (const d of diagrams) {
    if (d.drawn === 'bars') {
      expect(d.how, d.id).toMatch(/each blue bar's height/);
      expect(d.how, d.id).not.toMatch(/One line per model/);
      expect(d.rects, d.id).toBeGreaterThan(5);
      expect(
        d.legend.some((l) => l?.includes('over-confident') || l?.includes('too high')),
        d.id,
      ).toBe(true);
    } else if (d.drawn === 'lines') {
      expect(d.how, d.id).toMatch(models === 1 ? /Each point|each point/ : /One line per model/);
      expect(d.how, d.id).not.toMatch(/bar/);
      expect(d.lines, d.id).toBeGreaterThanOrEqual(models);
    } else if (d.drawn === 'smooth') {
      // a band and a line per model (and the diagonal); smECE and σ named in the title or legend
      expect(d.how, d.id).toMatch(new RegExp(`95% bootstrap band \\(${band} resamples`));
      expect(d.areas, d.id).toBeGreaterThanOrEqual(models);
      expect(d.lines, d.id).toBeGreaterThanOrEqual(models + 1);
      expect(d.text.match(/smECE \d\.\d{4}, σ \d\.\d{4}/g)?.length, d.id).toBe(models);
    } else if (d.drawn === 'histogram') {
      expect(d.how, d.id).toMatch(
        /accuracy as a solid black line and the average confidence as a dashed vermillion line/,
      );
      expect(d.rects, d.id).toBeGreaterThan(3 * models);
      expect(d.rules, d.id).toBe(2 * models);
      expect(d.legend, d.id).toEqual(['accuracy', 'average confidence']);
    } else {
      expect(d.drawn).toBe('classwise');
      expect(d.how, d.id).toMatch(/one panel per class.*All 10 classes are shown\.$/);
      for (let k = 0; k < 10; k++) expect(d.text, d.id).toContain(`class ${k} · n = `);
      expect(d.points, d.id).toBeGreaterThan(10 * models);
    }
    if (['bars', 'lines', 'classwise'].includes(d.drawn as string)) {
      expect(d.how, d.id).toMatch(/95% Wilson intervals/);
      expect(d.rules, d.id).toBeGreaterThan(3); // the per-bin intervals are drawn
    }
  }
  // the equal-mass view sits beside the equal-width one
  const [left, right] = await page.$$eval(['#chart-reliability', '#chart-reliability-equal-mass'].join(','), (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top, left: r.left };
    }),
  );
  expect(right?.top).toBe(left?.top);
  expect(right?.left).toBeGreaterThan((left?.left ?? 0) + 300);
}

/** Whether to save screenshots (UM_SCREENSHOTS=1): a look at the report, not a check. */
const SCREENSHOTS = process.env.UM_SCREENSHOTS === '1';

/** With {@link SCREENSHOTS}: the whole page (`full`), its top, and each new calibration chart into test/.artifacts/. */
async function shoot(page: Page, prefix: string, ids: string[], views: { full: string; top?: string }): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(`${repoRoot}test/.artifacts`, { recursive: true });
  await page.screenshot({ path: `${repoRoot}test/.artifacts/${views.full}.png`, fullPage: true });
  if (views.top !== undefined) await page.screenshot({ path: `${repoRoot}test/.artifacts/${views.top}.png` });
  for (const id of ids) {
    await page.locator(`#chart-${id}`).screenshot({ path: `${repoRoot}test/.artifacts/${prefix}-${id}.png` });
  }
}

/** The working directory of the README main job's process, its report.html read by the browser below. */
const mainJob = mkdtempSync(join(tmpdir(), 'um-main-job-'));
afterAll(() => rmSync(mainJob, { recursive: true }));
const D = `${repoRoot}examples/data/`;
const MAIN_FILES = [`${D}mlp_overfit_test.csv`, `${D}logreg_test.csv`];

describe('um report as a real process', () => {
  // one process, under script(1) with stdout sent to a file so that the terminal is its stderr alone (without
  // script(1), as a plain process and no bar); the bar's other behaviour (nothing off a terminal) is
  // test/cli/report.test.ts's
  it(`the README main job writes report.html through the installed bin (a real process), with a progress bar on a terminal stderr${skip.terminal === undefined ? '' : ` — the bar not checked: ${skip.terminal}`}`, () => {
    const bin = `${repoRoot}node_modules/.bin/um`;
    const args = ['report', ...MAIN_FILES];
    if (skip.terminal !== undefined) {
      const r = umProcess([...args, '-o', 'report.html'], { bin, cwd: mainJob });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toBe('report.html: 2 models, 12 charts\n');
    } else {
      const command = [bin, ...args, '-o', 'report.html', '> stdout.txt'].join(' ');
      const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: mainJob, encoding: 'utf8' });
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(readFileSync(join(mainJob, 'stdout.txt'), 'utf8')).toBe('report.html: 2 models, 12 charts\n');
      // the terminal (stderr) shows the bar up to its last step, and nothing else: no warning, no note
      expect(r.stdout).toMatch(/um report \[=+\] (\d+)\/\1 Metrics vs temperature/);
      // eslint-disable-next-line no-control-regex
      const shown = r.stdout.split(/\u001b(?:\[[?\d;]*[A-Za-z]|[78])/).filter((t) => t.trim() !== '');
      expect(shown.filter((t) => !/^um report \[[=-]{40}\] \d+\/\d+( [^\n]*)?$/.test(t))).toEqual([]);
    }
    const html = readFileSync(join(mainJob, 'report.html'), 'utf8');
    expect(html).toContain('<td data-metric="accuracy" data-model="0" data-value="0.952"');
  });
});

describe.skipIf(skip.browser !== undefined)(named('the HTML report in headless Chromium', skip.browser), () => {
  // one browser for the file (a launch costs about a second of CPU); each report opens in its own fresh page. The
  // browser starts as this suite begins, and each test awaits it when it opens a page
  let launching: ReturnType<typeof launch> | undefined;
  const browser = () => launching as ReturnType<typeof launch>;
  beforeAll(() => {
    expect(CHROMIUM, 'Chromium is required (UM_REQUIRE_BROWSER=1): apt-get install chromium').toBeDefined();
    launching = launch();
    // a failed launch fails each test that awaits it, not the process as an unhandled rejection
    launching.catch(() => undefined);
  });
  afterAll(async () => (await launching?.catch(() => undefined))?.close());
  const launch = () =>
    chromium.launch({
      executablePath: CHROMIUM as string,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  it(
    'the README’s main job: summary and comparison first, sized charts, the numbers of um metrics with intervals, diagrams as described',
    { timeout: 180_000 },
    async () => {
      // the real process's report.html above (default flags: 200 table and 1000 comparison resamples); made here the
      // same way when that test did not run (`-t`) or failed before writing it
      const file = join(mainJob, 'report.html');
      if (!existsSync(file)) {
        const r = umProcess(['report', ...MAIN_FILES, '-o', 'report.html'], {
          bin: `${repoRoot}node_modules/.bin/um`,
          cwd: mainJob,
        });
        expect([r.code, r.stderr]).toEqual([0, '']);
      }
      const files = MAIN_FILES;
      const { page, problems, requests, url } = await open(await browser(), file);
      try {
        expect(problems).toEqual([]);
        expect(requests).toEqual([url]); // the document itself, nothing else
        await checkPage(page, files, 12, false);
        const summary = await page.textContent('#summary');
        expect(summary).toMatch(/Over-confident on average/);
        expect(summary).toMatch(
          /logreg_test is better calibrated than mlp_overfit_test: ECE 0\.0138 vs 0\.0389, lower by 0\.0251 \(95% paired interval of logreg_test − mlp_overfit_test: -0\.0445 … -0\.0057\)\./,
        );
        // the section order: contents, summary before the metrics and the charts
        const order = await page.$$eval('body > nav, body > section, body > .charts', (els) =>
          els.map((e) => e.id || e.className),
        );
        expect(order.slice(0, 3)).toEqual(['toc', 'summary', 'metrics-section']);
        await shoot(page, 'report', ['reliability-equal-mass', 'smooth', 'histogram', 'classwise'], {
          full: 'report',
          top: 'report-top',
        });
      } finally {
        await page.close();
      }
    },
  );
  it('a binary report (--binary): the positive-class diagram first, as described', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-browser-'));
    // a real binary task from the bundled predictions: "is it a 7?", scored by logreg's P(7), on the first 1000 rows
    // (what the page is checked for does not depend on the rows; the report's cost grows with them)
    const csv = join(dir, 'seven.csv');
    const lines = readFileSync(`${repoRoot}examples/data/logreg_test.csv`, 'utf8').trim().split('\n').slice(1, 1001);
    writeFileSync(
      csv,
      `label,p_0\n${lines
        .map((l) => {
          const c = l.split(',');
          return `${c[0] === '7' ? 1 : 0},${c[8]}`;
        })
        .join('\n')}\n`,
    );
    const file = join(dir, 'binary.html');
    // few resamples: the main job above reads the default report's intervals; here each interval only has to be
    // drawn and hold its estimate
    const made = await um(['report', csv, '--binary', '--resamples', '40', '-o', file]);
    expect(made.code, made.stderr).toBe(0);
    const { page, problems, requests, url } = await open(await browser(), file);
    try {
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      await checkPage(page, [csv], 12, true, 40);
      expect(await page.textContent('#chart-positive-class svg')).toContain('predicted P(y = 1)');
      await shoot(page, 'report-binary', ['reliability-equal-mass', 'smooth', 'histogram'], { full: 'report-binary' });
    } finally {
      await page.close();
      rmSync(dir, { recursive: true });
    }
  });
});
