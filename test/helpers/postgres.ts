/**
 * The PostgreSQL client of a test suite: connected to UM_TEST_POSTGRES before the suite's tests (beforeAll) and ended
 * after them (afterAll). Call it inside a `describe` that is skipped without a server (`skip.postgres`).
 */
import { afterAll, beforeAll } from 'vitest';
import { POSTGRES_URL } from './requirements.js';

/** What the tests use of a `pg` client. */
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** A client for the suite's tests: its queries go to the connection made before them. */
export function usePostgres(): PgClient {
  let client: (PgClient & { end(): Promise<void> }) | undefined;
  beforeAll(async () => {
    const pg = await import('pg');
    const c = new pg.default.Client({ connectionString: POSTGRES_URL });
    await c.connect();
    client = c as unknown as typeof client;
  });
  afterAll(async () => client?.end());
  return { query: (text, values) => (client as PgClient).query(text, values) };
}
