/**
 * `um metrics` reads a file whole whenever its estimated in-memory peak fits the memory budget (`--memory`, default
 * a quarter of the machine's memory) and streams it otherwise — not above a fixed 64 MiB. The estimate counts the
 * score values exactly from NumPy and Parquet headers and bounds them from the size of text files.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { shouldStream } from '../../src/cli/commands/metrics.js';
import { defaultMemoryBudget, inMemoryBytes } from '../../src/cli/memoryBudget.js';
import { UMError } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'um-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NPY = 'examples/data/mlp_overfit_test_logits.npy'; // 2000 × 10 float32
const CSV = 'examples/data/logreg_test.csv';
const MiB = 2 ** 20;

describe('the in-memory estimate', () => {
  it('counts NumPy values from the header, Parquet values from the column chunks, text values from the size', async () => {
    const base = await inMemoryBytes(NPY, false);
    expect(await inMemoryBytes(NPY, true)).toBe(base + 2000 * 10 * (30 - 25)); // 30 − 25 bytes per value more with class-wise
    const cols = join(dir, 'cols.parquet');
    writeFileSync(
      cols,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'label', data: [1, 0, 1], type: 'INT32' },
            { name: 'p_0', data: [0.2, 0.6, 0.5], type: 'DOUBLE' },
            { name: 'p_1', data: [0.8, 0.4, 0.5], type: 'DOUBLE' },
          ],
        }),
      ),
    );
    expect((await inMemoryBytes(cols, true)) - (await inMemoryBytes(cols, false))).toBe(9 * (50 - 45));
    // a list written as text (byte arrays) is bounded from its size: at least its 6 probabilities and 3 labels
    const list = join(dir, 'list.parquet');
    writeFileSync(
      list,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'label', data: [1, 0, 1], type: 'INT32' },
            {
              name: 'probs',
              data: [
                [0.2, 0.8],
                [0.6, 0.4],
                [0.5, 0.5],
              ],
            },
          ],
        }),
      ),
    );
    expect((await inMemoryBytes(list, true)) - (await inMemoryBytes(list, false))).toBeGreaterThanOrEqual(
      9 * (50 - 45),
    );
    const size = statSync(CSV).size;
    expect((await inMemoryBytes(CSV, true)) - (await inMemoryBytes(CSV, false))).toBe(Math.ceil(size / 4) * (50 - 45));
  });
  it('the default budget is a quarter of the machine memory', () => {
    expect(defaultMemoryBudget()).toBe(Math.floor(totalmem() / 4));
  });
});

describe('when um metrics streams', () => {
  const at = (args: Record<string, unknown>) => shouldStream('um metrics', { file: NPY, ...args });
  it('a file that fits is read whole; under a budget below its estimate it streams', async () => {
    expect(await at({})).toBe(false);
    const need = await inMemoryBytes(NPY, true);
    expect(await at({ memory: String(Math.ceil(need / MiB) + 1) })).toBe(false);
    expect(await at({ memory: String(Math.floor(need / MiB) - 1) })).toBe(true);
    // without the class-wise metrics the same file needs less
    const core = await inMemoryBytes(NPY, false);
    expect(await at({ memory: String(Math.ceil(core / MiB) + 1), classwise: false })).toBe(false);
  });
  it('--stream and --no-stream decide; the options of streaming ask for it; JSON, members and calibrators are read whole', async () => {
    expect(await at({ stream: true })).toBe(true);
    expect(await at({ stream: false, memory: '1' })).toBe(false);
    for (const flag of [{ threads: '2' }, { 'chunk-rows': '100' }, { bounded: true }, { exact: true }])
      expect(await at(flag), JSON.stringify(flag)).toBe(true);
    expect(await at({ memory: '1', members: true })).toBe(false);
    expect(await at({ memory: '1', calibration: 'c.json' })).toBe(false);
    expect(await shouldStream('um metrics', { file: 'x.json', memory: '1' })).toBe(false);
    // a FIFO is not opened to estimate (that would block, and consume its bytes): its reader decides
    const fifo = join(dir, 'fifo.npy');
    execFileSync('mkfifo', [fifo]);
    expect(await shouldStream('um metrics', { file: fifo, memory: '1' })).toBe(false);
  });
  it('--memory must be a number of MiB ≥ 1', async () => {
    for (const bad of ['0', '-5', 'abc', '', 'Infinity']) {
      const e = await at({ memory: bad }).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e, bad).toBeInstanceOf(UMError);
      expect((e as UMError).message).toMatch(/^um metrics: --memory must be a number of MiB ≥ 1; got /);
    }
  });
});
