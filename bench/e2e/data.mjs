// The data sets of the end-to-end benchmark, generated once (seeded) and kept in bench/.data/ (gitignored):
// - NumPy: probs/logits/labels-NxC.npy in bench/.data/e2e/ (bench/e2e/generate.py: float32 softmax of temperature-
//   sharpened random logits, 77–88 % accuracy);
// - text and columnar files: preds-Nx10.csv from bench/generate.mjs (the same file `npm run bench:files` uses),
//   preds-Nx10.parquet written from it by DuckDB, preds-Nx10.jsonl written from the same decimal text, and the
//   float64 values of the CSV as .npy (bench/e2e/csv_to_npy.py, numpy's parser) for the reference values.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateCsv } from '../generate.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
export const python = process.env.BENCH_PYTHON ?? 'python3';

function run(command, args) {
  const r = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

/** The .npy files of one N × C shape: { probs, logits, labels }. */
export function npyData(dir, n, c) {
  const out = join(dir, 'e2e');
  const name = `${n}x${c}`;
  const files = {
    probs: join(out, `probs-${name}.npy`),
    logits: join(out, `logits-${name}.npy`),
    labels: join(out, `labels-${name}.npy`),
  };
  if (!Object.values(files).every((f) => existsSync(f))) {
    console.error(`generating ${name} .npy files …`);
    run(python, ['-B', join(here, 'generate.py'), String(n), String(c), out]);
  }
  return files;
}

async function jsonlFromCsv(csv, jsonl) {
  const tmp = `${jsonl}.tmp`;
  const out = createWriteStream(tmp);
  const write = (text) => (out.write(text) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  let first = true;
  let chunk = [];
  for await (const line of createInterface({ input: createReadStream(csv), crlfDelay: Infinity })) {
    if (first) {
      first = false;
      continue;
    }
    if (line === '') continue;
    const comma = line.indexOf(',');
    chunk.push(`{"label":${line.slice(0, comma)},"probs":[${line.slice(comma + 1)}]}`);
    if (chunk.length === 10000) {
      await write(`${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  if (chunk.length > 0) await write(`${chunk.join('\n')}\n`);
  await new Promise((r) => out.end(r));
  renameSync(tmp, jsonl);
}

/** The N × 10 prediction files { csv, parquet?, jsonl?, refProbs, refLabels } (Parquet and JSONL when asked). */
export async function fileData(dir, n, { parquet = false, jsonl = false } = {}) {
  mkdirSync(join(dir, 'e2e'), { recursive: true });
  const files = {
    csv: join(dir, `preds-${n}x10.csv`),
    refProbs: join(dir, 'e2e', `ref-probs-${n}x10.npy`),
    refLabels: join(dir, 'e2e', `ref-labels-${n}x10.npy`),
  };
  if (!existsSync(files.csv)) {
    console.error(`generating ${files.csv} …`);
    await generateCsv(`${files.csv}.tmp`, n, 10, 1);
    renameSync(`${files.csv}.tmp`, files.csv);
  }
  if (parquet) {
    files.parquet = join(dir, `preds-${n}x10.parquet`);
    if (!existsSync(files.parquet)) {
      console.error(`writing ${files.parquet} with DuckDB …`);
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      await c.run(
        `COPY (SELECT * FROM read_csv('${files.csv}', header = true)) TO '${files.parquet}.tmp' (FORMAT parquet, ROW_GROUP_SIZE 65536)`,
      );
      c.closeSync();
      db.closeSync();
      renameSync(`${files.parquet}.tmp`, files.parquet);
    }
  }
  if (jsonl) {
    files.jsonl = join(dir, 'e2e', `preds-${n}x10.jsonl`);
    if (!existsSync(files.jsonl)) {
      console.error(`writing ${files.jsonl} …`);
      await jsonlFromCsv(files.csv, files.jsonl);
    }
  }
  if (!existsSync(files.refProbs) || !existsSync(files.refLabels)) {
    console.error(`reading ${files.csv} with numpy for the reference values …`);
    run(python, ['-B', join(here, 'csv_to_npy.py'), files.csv, files.refProbs, files.refLabels]);
  }
  return files;
}
