import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import {
  SQL_DIALECTS,
  duckdbEngine,
  finishSqlMetrics,
  metricsSql,
  postgresEngine,
  sqlMetrics,
  type SqlEngine,
} from '../../src/sql/index.js';
import { caseIds, loadCase } from '../helpers/conformance.js';
import { exampleCsv } from '../helpers/data.js';
import { expectClose, inMemory, type SqlReference } from '../helpers/sqlReference.js';
import { uniforms } from '../helpers/minstd.js';
import { usePostgres } from '../helpers/postgres.js';
import { named, skip } from '../helpers/requirements.js';

const dir = mkdtempSync(join(tmpdir(), 'um-sql-'));
afterAll(() => rmSync(dir, { recursive: true, force: true })); // (it held 14 MB of CSV after every run)
const quiet = { onWarning: () => {} };

/** Writes labels, probabilities (and weights) as CSV with round-trip decimals. */
function csv(name: string, labels: number[], probs: number[][], weights?: number[]): string {
  const c = (probs[0] as number[]).length;
  const head = [
    'label',
    ...Array.from({ length: c }, (_, k) => `p_${k}`),
    ...(weights === undefined ? [] : ['w']),
  ].join(',');
  const rows = labels.map((y, i) =>
    [y, ...(probs[i] as number[]), ...(weights === undefined ? [] : [weights[i]])].join(','),
  );
  const path = join(dir, `${name}.csv`);
  writeFileSync(path, `${head}\n${rows.join('\n')}\n`);
  return path;
}

/** One table to load: its columns as comma-separated round-trip decimals (label, p_0 … p_{C−1}, w), built once. */
interface Table {
  id: string;
  numClasses: number;
  names: string[];
  columns: string[];
  weighted: boolean;
  want: SqlReference;
}

function table(id: string, labels: number[], probs: number[][], weights?: number[]): Table {
  const c = (probs[0] as number[]).length;
  const names = ['label', ...Array.from({ length: c }, (_, k) => `p_${k}`), ...(weights === undefined ? [] : ['w'])];
  const columns = [
    labels.join(','),
    ...Array.from({ length: c }, (_, k) => probs.map((row) => row[k] as number).join(',')),
    ...(weights === undefined ? [] : [weights.join(',')]),
  ];
  return { id, numClasses: c, names, columns, weighted: weights !== undefined, want: inMemory(labels, probs, weights) };
}

// every classification case with at least two classes that the in-memory metrics accept (not e.g. rows that do not
// sum to 1), and the weights on logreg_test; built once for both databases (the references and the text took ~0.5 s
// per database)
let tables: Table[] | undefined;
function conformanceTables(): Table[] {
  if (tables !== undefined) return tables;
  tables = [];
  for (const id of caseIds('classification')) {
    const c = loadCase(id);
    if (c.probs.length === 0 || (c.probs[0] as number[]).length < 2) continue;
    try {
      tables.push(table(id, c.labels, c.probs));
    } catch {
      continue; // invalid for the in-memory metrics too
    }
  }
  const d = exampleCsv('logreg_test');
  tables.push(
    table(
      'weighted',
      d.labels,
      d.probs,
      Array.from(uniforms(3, d.labels.length), (u) => Math.round(u * 300) / 100),
    ),
  );
  return tables;
}

/**
 * sqlMetrics on every conformance table, loaded by `load` (a table name or FROM expression), against the in-memory
 * metrics. The columns go in as text, split and unnested by the database: float input is correctly rounded in both, so
 * the tables hold the same doubles (checked bit for bit once, when this was written, over all the cases' values and
 * 20 000 random doubles); one
 * statement per table, where 500-row INSERTs of literals took 1 s on PostgreSQL.
 */
async function conformance(engine: SqlEngine, load: (t: Table) => Promise<string>): Promise<number> {
  let checked = 0;
  for (const t of conformanceTables()) {
    const source = await load(t);
    const options = { numClasses: t.numClasses, ...(t.weighted ? { weightColumn: 'w' } : {}), ...quiet };
    expectClose(await sqlMetrics(engine, source, options), t.want, t.id);
    checked++;
  }
  return checked;
}

/**
 * A NULL score, scores outside [0, 1] summing to 1 and to 2 (a bad probability, counted once), valid scores whose sums
 * are off by 0.1 and 0.6, and a valid row: dropping the bad-sum count's exclusion of bad probabilities counts 3 bad
 * sums, reversing it 1.
 */
const INVALID_ROWS =
  'SELECT * FROM (VALUES (0, NULL, 0.5), (1, 1.2, -0.2), (0, 1.5, 0.5), (0, 0.5, 0.6), (1, 0.2, 0.2), (1, 0.3, 0.7)) AS t(label, p_0, p_1)';
const INVALID_ROW_COUNTS = [6, 3, 2];

/** The scores query's row count and invalid-row counts on {@link INVALID_ROWS}, as a temporary table of the engine. */
async function invalidRowCounts(engine: SqlEngine, dialect: 'duckdb' | 'postgres'): Promise<unknown[]> {
  await engine.query(`CREATE TEMP TABLE invalid_rows AS ${INVALID_ROWS}`);
  const [row] = await engine.query(metricsSql('invalid_rows', { numClasses: 2, dialect }).scores);
  return [row?.n, row?.bad_probability_rows, row?.bad_sum_rows];
}

describe('SQL push-down: DuckDB (embedded)', () => {
  let db: Awaited<ReturnType<typeof duckdbEngine>>;
  beforeAll(async () => {
    db = await duckdbEngine();
  });
  afterAll(() => db.close());
  const reader = (path: string, c: number, weighted: boolean) =>
    `read_csv('${path}', header = true, columns = {'label': 'DOUBLE', ${Array.from({ length: c }, (_, k) => `'p_${k}': 'DOUBLE'`).join(', ')}${weighted ? ", 'w': 'DOUBLE'" : ''}})`;

  it('equals the in-memory metrics on the conformance data (≤ 1e-9 relative), with and without weights', async () => {
    const checked = await conformance(db, async (t) => {
      if (t.weighted) {
        // one source as read_csv(…), as users give a file, with the weight column
        const [labels, ...rest] = t.columns.map((x) => x.split(','));
        const rows = (labels as string[]).map((y, i) => [y, ...rest.map((col) => col[i])].join(','));
        const path = join(dir, `${t.id}.csv`);
        writeFileSync(path, `${t.names.join(',')}\n${rows.join('\n')}\n`);
        return reader(path, t.numClasses, true);
      }
      const name = `t_${t.id.replace(/\W/g, '_')}`;
      // split, then cast each value (a cast of the whole text to DOUBLE[] parsed 5000 × 100 in 280 ms, this in 90)
      const list = t.names.map((x, j) => `CAST(UNNEST(string_split($${j + 1}, ',')) AS DOUBLE) AS ${x}`).join(', ');
      await db.query(`CREATE OR REPLACE TEMP TABLE ${name} AS SELECT ${list}`, t.columns);
      return name;
    });
    expect(checked).toBeGreaterThanOrEqual(21);
  });

  it('reports invalid rows instead of a number', async () => {
    const path = csv(
      'bad',
      [0, 1, 5],
      [
        [0.5, 0.5],
        [0.2, 0.8],
        [0.3, 0.7],
      ],
    );
    await expect(sqlMetrics(db, reader(path, 2, false), { numClasses: 2 })).rejects.toThrow(
      /^sqlMetrics: rows must have labels that are integers in \[0, 2\); got 1 \(1 of 3 rows do not\)$/,
    );
    const path2 = csv(
      'bad2',
      [0, 1],
      [
        [0.5, 0.6],
        [1.2, -0.2],
      ],
    );
    const e = await sqlMetrics(db, reader(path2, 2, false), { numClasses: 2 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UMError);
    expect((e as UMError).code).toBe('UM_PROB_RANGE');
  });

  it('counts each invalid row once: a row with a bad probability is not also a bad sum', async () => {
    await db.query('DROP TABLE IF EXISTS invalid_rows');
    expect(await invalidRowCounts(db, 'duckdb')).toEqual(INVALID_ROW_COUNTS);
  });
});

// PostgreSQL: .ci/run starts a server and sets UM_TEST_POSTGRES (a connection string); locally, set it yourself.
describe.skipIf(skip.postgres !== undefined)(named('SQL push-down: PostgreSQL (real server)', skip.postgres), () => {
  const client = usePostgres();

  it('equals the in-memory metrics on the conformance data (≤ 1e-9 relative), with and without weights', async () => {
    const engine = postgresEngine(client);
    const checked = await conformance(engine, async (t) => {
      const name = `um_${t.id.replace(/\W/g, '_')}`;
      const list = t.names.map((_, j) => `$${j + 1}::float8[]`).join(', ');
      await client.query(`DROP TABLE IF EXISTS ${name}`);
      await client.query(
        `CREATE TEMP TABLE ${name} AS SELECT * FROM unnest(${list}) AS u(${t.names.join(', ')})`,
        t.columns.map((x) => `{${x}}`),
      );
      return name;
    });
    expect(checked).toBeGreaterThanOrEqual(21);
  });

  it('counts each invalid row once: a row with a bad probability is not also a bad sum', async () => {
    await client.query('DROP TABLE IF EXISTS invalid_rows');
    expect(await invalidRowCounts(postgresEngine(client), 'postgres')).toEqual(INVALID_ROW_COUNTS);
  });

  it('database errors caused by the source are one-line UMErrors (SQLSTATE class 22 → UM_FILE_FORMAT, 42 → UM_OPTION)', async () => {
    const engine = postgresEngine(client);
    await client.query('DROP TABLE IF EXISTS um_words');
    await client.query(
      "CREATE TEMP TABLE um_words AS SELECT 'zero'::text AS label, 0.5::float8 AS p_0, 0.5::float8 AS p_1",
    );
    for (const [source, code, message] of [
      [
        'um_words',
        'UM_FILE_FORMAT',
        /^sqlMetrics: source: PostgreSQL cannot run the query: invalid input syntax for type double precision: "zero"$/,
      ],
      [
        'no_such_table',
        'UM_OPTION',
        /^sqlMetrics: source: PostgreSQL cannot run the query: relation "no_such_table" does not exist$/,
      ],
    ] as const) {
      const e = await sqlMetrics(engine, source, { numClasses: 2 }).catch((x: unknown) => x);
      expect(e, source).toBeInstanceOf(UMError);
      expect([(e as UMError).code, (e as UMError).message], source).toEqual([code, expect.stringMatching(message)]);
    }
  });
});

describe('SQL dialects', () => {
  for (const dialect of SQL_DIALECTS) {
    it(`${dialect}: the generated SQL is stable (snapshot)`, async () => {
      const q = metricsSql(dialect === 'bigquery' ? '`project.dataset.preds`' : 'preds', {
        numClasses: 3,
        dialect,
        weightColumn: 'weight',
        bins: 10,
      });
      const text = Object.entries(q)
        .filter(([k]) => k !== 'dialect')
        .map(([k, v]) => `-- ${k}\n${v as string};`)
        .join('\n\n');
      await expect(`${text}\n`).toMatchFileSnapshot(`__snapshots__/metrics.${dialect}.sql`);
    });
  }

  it('quotes identifiers for each dialect', () => {
    expect(metricsSql('t', { numClasses: 2, dialect: 'spark', labelColumn: 'my label' }).scores).toContain(
      '`my label`',
    );
    expect(metricsSql('t', { numClasses: 2, dialect: 'postgres', labelColumn: 'my "label"' }).scores).toContain(
      '"my ""label"""',
    );
  });

  it('rejects bad options', () => {
    expect(() => metricsSql('t', { numClasses: 1 })).toThrow(
      /metricsSql: options.numClasses must be an integer in \[2, 32768\]; got 1/,
    );
    // the SQL grows with the classes: 1e9 built gigabytes of text for minutes, 1e15 threw a RangeError
    for (const c of [2 ** 15 + 1, 1e9, 1e15, Infinity, 2.5])
      expect(() => metricsSql('t', { numClasses: c })).toThrow(
        /^metricsSql: options.numClasses must be an integer in \[2, 32768\]/,
      );
    expect(() => metricsSql('t', { numClasses: 3, dialect: 'mysql' as never })).toThrow(
      /options.dialect must be one of/,
    );
    expect(() => metricsSql('', { numClasses: 3 })).toThrow(/metricsSql: source must be a table name/);
    // unknown keys were ignored (a misspelt option silently had no effect); the finisher also takes onWarning
    expect(() => metricsSql('t', { numClasses: 3, bin: 10 } as never)).toThrow(
      /^metricsSql: options.bin must not be given: metricsSql has no such option/,
    );
    expect(() => metricsSql('t', { numClasses: 3, onWarning: () => {} } as never)).toThrow(
      /^metricsSql: options.onWarning must not be given/,
    );
    expect(() => finishSqlMetrics({} as never, { numClasses: 3, preset: 'sklearn' } as never)).toThrow(
      /^finishSqlMetrics: options.preset must not be given/,
    );
  });
});

describe('hostile arguments: located UMErrors, never a TypeError, NaN or Infinity', () => {
  const bin = (b: number, n: number, score: number, outcome: number) => ({ bin: b, n, weight: n, score, outcome });
  const ROWS = {
    topLabel: [bin(9, 1, 0.9, 1), bin(8, 1, 0.8, 1)],
    classwise: [{ k: 1, ...bin(9, 1, 0.9, 1) }],
    uncertainty: [bin(4, 2, 1, 0)],
    scores: [
      {
        n: 2,
        weighted_rows: 2,
        weight: 2,
        correct: 2,
        brier: 0.1,
        nll: 0.33,
        entropy: 0.8,
        bad_probability_rows: 0,
        bad_sum_rows: 0,
        bad_label_rows: 0,
        bad_weight_rows: 0,
        zero_label_rows: 0,
      },
    ],
    auroc: [{ area: 1, pos: 1, neg: 1 }],
  };
  it('finishSqlMetrics: every field of the rows replaced by a value of another kind', () => {
    const options = { numClasses: 2, bins: 10, onWarning: () => {} };
    expect(finishSqlMetrics(ROWS, options).ece).toBeCloseTo(0.15, 12);
    let rejected = 0;
    const lists = Object.keys(ROWS) as (keyof typeof ROWS)[];
    const cases: unknown[] = [
      null,
      'rows',
      [],
      ...lists.flatMap((l) => [undefined, null, {}, [null], [[]]].map((v) => ({ ...ROWS, [l]: v }))),
    ];
    for (const l of lists) {
      for (const key of Object.keys(ROWS[l][0] as object)) {
        for (const v of [
          undefined,
          null,
          NaN,
          Infinity,
          -Infinity,
          -1,
          1e308,
          0.5,
          1e9,
          5e-324,
          1e-300,
          '',
          'x',
          {},
          10n,
        ])
          cases.push({ ...ROWS, [l]: [{ ...ROWS[l][0], [key]: v }, ...ROWS[l].slice(1)] });
      }
    }
    for (const rows of cases) {
      const warned: string[] = [];
      let r: Record<string, unknown>;
      try {
        r = finishSqlMetrics(rows as never, { ...options, onWarning: (w) => warned.push(w.code) }) as unknown as Record<
          string,
          unknown
        >;
      } catch (e) {
        expect(e).toBeInstanceOf(UMError);
        expect((e as UMError).message).toMatch(/^finishSqlMetrics: rows/);
        rejected++;
        continue;
      }
      for (const [k, v] of Object.entries(r)) {
        // the NLL is Infinity when labels have probability 0, as documented, with UM_W_INFINITE
        if (typeof v === 'number' && !(k === 'nll' && v === Infinity && warned.includes('UM_W_INFINITE')))
          expect(
            Number.isFinite(v),
            `${k} = ${v} from ${JSON.stringify(rows, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x))}`,
          ).toBe(true);
      }
    }
    expect(rejected).toBeGreaterThan(200);
  });
  it('duckdbEngine: a path or settings of the wrong type, a setting DuckDB rejects, a file it cannot open', async () => {
    const bad: [unknown, unknown, RegExp][] = [
      [5, {}, /^duckdbEngine: path must be a database file name or ':memory:'; got 5/],
      ['', {}, /^duckdbEngine: path must be a database file name/],
      [':memory:', null, /^duckdbEngine: config must be an object of DuckDB settings; got null/],
      [':memory:', { threads: 4 }, /^duckdbEngine: config.threads must be a string/],
      [':memory:', { threads: 'many' }, /^duckdbEngine: config: DuckDB cannot open the database: /],
      [
        ':memory:',
        { no_such_setting: '1' },
        /^duckdbEngine: config: DuckDB cannot open the database: Invalid Input Error/,
      ],
      [
        '/nonexistent-dir/x.duckdb',
        {},
        /^duckdbEngine: \/nonexistent-dir\/x.duckdb: DuckDB cannot open the database: IO Error/,
      ],
    ];
    for (const [path, config, message] of bad) {
      const e = await duckdbEngine(path as never, config as never).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(UMError);
      expect((e as UMError).message).toMatch(message);
    }
  });
});
