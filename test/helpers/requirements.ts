/**
 * Suites that need something from outside the repository, and why a run skips them. The suites skip with
 * `describe.skipIf(skip.x !== undefined)` and carry the reason in their name; test/helpers/globalSetup.ts prints each
 * reason once per run (vitest's default reporter lists no skipped test), so a skip is never silent and a run with
 * everything present prints nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A PostgreSQL connection string (.ci/run starts a throwaway server with .ci/postgres.sh and sets it). */
export const POSTGRES_URL = process.env.UM_TEST_POSTGRES;

/** Debian's Chromium, driven by playwright-core (which downloads no browser). */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** With UM_REQUIRE_BROWSER=1 (.ci/run) a missing Chromium fails the browser test instead of skipping it. */
export const BROWSER_REQUIRED = process.env.UM_REQUIRE_BROWSER === '1';

/** Why each optional suite is skipped in this run (undefined: it runs). */
export const skip = {
  postgres:
    POSTGRES_URL === undefined
      ? 'UM_TEST_POSTGRES is not set: give a connection string (.ci/run starts a server with .ci/postgres.sh)'
      : undefined,
  browser:
    CHROMIUM === undefined && !BROWSER_REQUIRED
      ? 'no Chromium at /usr/bin/chromium (apt-get install chromium; .ci/run requires it with UM_REQUIRE_BROWSER=1)'
      : undefined,
  terminal:
    spawnSync('script', ['--version']).status === 0
      ? undefined
      : 'no script(1) to give the command a terminal (apt-get install bsdutils)',
};

/** The suites each reason skips, as printed once per run. */
export const SKIPPED_SUITES: Record<keyof typeof skip, string> = {
  postgres: 'the PostgreSQL suites (test/sql/sql.test.ts, quoting.test.ts, queryShape.test.ts)',
  browser: 'the headless-browser test (test/browser/report.test.ts)',
  terminal: 'the progress-bar test (test/browser/report.test.ts)',
};

/** A suite's name, with the reason it is skipped in this run. */
export function named(name: string, reason: string | undefined): string {
  return reason === undefined ? name : `${name} — skipped: ${reason}`;
}
