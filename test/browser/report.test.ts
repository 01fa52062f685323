/**
 * The report in a real browser: headless Debian Chromium driven by playwright-core. No console errors, no network
 * requests, every chart has a size, and the metrics table shows the numbers of `um metrics --json`. Saves a
 * screenshot to test/.artifacts/report.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { repoRoot, um } from '../helpers/cli.js';
import { CHROMIUM, named, skip } from '../helpers/requirements.js';

describe.skipIf(skip.browser !== undefined)(named('the HTML report in headless Chromium', skip.browser), () => {
  it('renders without errors or network requests, with sized charts and the numbers of um metrics', { timeout: 60_000 }, async () => {
    expect(CHROMIUM, 'Chromium is required (UM_REQUIRE_BROWSER=1): apt-get install chromium').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'um-browser-'));
    const file = join(dir, 'report.html');
    const D = `${repoRoot}examples/data/`;
    const made = await um(['report', `${D}mlp_overfit_test.csv`, `${D}logreg_test.csv`, '-o', file]);
    expect(made.code, made.stderr).toBe(0);
    const browser = await chromium.launch({
      executablePath: CHROMIUM as string,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => requests.push(r.url()));
      const url = pathToFileURL(file).href;
      await page.goto(url, { waitUntil: 'load' });
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]); // the document itself, nothing else
      const sizes = await page.$$eval('figure > svg', (svgs) => svgs.map((s) => { const r = s.getBoundingClientRect(); return [r.width, r.height]; }));
      expect(sizes).toHaveLength(8);
      for (const [w, h] of sizes) {
        expect(w).toBeGreaterThan(100);
        expect(h).toBeGreaterThan(100);
      }
      const cells = await page.$$eval('#metrics td[data-metric]', (tds) => tds.map((td) => ({ metric: td.getAttribute('data-metric'), model: Number(td.getAttribute('data-model')), value: td.getAttribute('data-value'), text: td.textContent })));
      for (const [model, csv] of ['mlp_overfit_test.csv', 'logreg_test.csv'].entries()) {
        const expected = JSON.parse((await um(['metrics', `${D}${csv}`, '--json'])).stdout) as Record<string, unknown>;
        const mine = cells.filter((c) => c.model === model);
        expect(mine.length).toBe(17);
        for (const c of mine) {
          expect(Number(c.value), c.metric ?? '').toBe(expected[c.metric as string]);
          expect(Math.abs(Number.parseFloat(c.text ?? '') - (expected[c.metric as string] as number))).toBeLessThan(5e-7);
        }
      }
      mkdirSync(`${repoRoot}test/.artifacts`, { recursive: true });
      await page.screenshot({ path: `${repoRoot}test/.artifacts/report.png`, fullPage: true });
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true });
    }
  });
});
