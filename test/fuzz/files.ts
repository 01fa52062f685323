/**
 * Seeded valid prediction files of every format (CSV, JSON, JSON Lines, Parquet, NumPy, calibrator JSON) and their
 * broken variants for the files fuzz: byte flips, truncation, inserted quotes, NUL, BOM, invalid UTF-8, line breaks,
 * huge or special numbers, header and key mutations, NumPy headers that lie about the shape or type, Parquet
 * footers that lie about the row counts.
 */
import { parquetMetadata, type FileMetaData } from 'hyparquet';
import { ByteWriter, parquetWriteBuffer } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { fitHistogramBinning, fitIsotonic, fitPlatt, fitTemperature, fitTopBinning } from '../../src/index.js';
import { clone, mutateValue, SPECIAL_NUMBERS, type Rand, type Vocabulary } from './generate.js';

/** A valid set of predictions: rows of probabilities (ties, exact zeros), labels and positive weights. */
export interface Predictions {
  labels: number[];
  probs: number[][];
  weights: number[];
}

export function predictions(r: Rand): Predictions {
  const n = 1 + r.int(r.chance(0.2) ? 200 : 30);
  const c = 2 + r.int(3);
  const probs = Array.from({ length: n }, () => {
    const raw = Array.from({ length: c }, () => (r.chance(0.15) ? 0 : 1 + r.int(6)));
    if (!raw.some((x) => x > 0)) raw[0] = 1;
    const s = raw.reduce((a, b) => a + b, 0);
    return raw.map((x) => x / s);
  });
  return { labels: probs.map(() => r.int(c)), probs, weights: probs.map(() => (r.chance(0.5) ? 1 : 0.5 + r.int(4))) };
}

export type Format = 'csv' | 'jsonl' | 'json' | 'parquet' | 'npy';

/** A NumPy .npy of the given dtype and shape (version 1 header padded to 64 bytes). */
export function npy(shape: readonly number[], values: readonly number[], dtype = '<f8', fortran = false): Buffer {
  let header = `{'descr': '${dtype}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  const size = dtype.endsWith('8') ? 8 : 4;
  const data = Buffer.alloc(values.length * size);
  values.forEach((v, i) => {
    if (dtype === '<f8') data.writeDoubleLE(v, i * 8);
    else if (dtype === '<f4') data.writeFloatLE(v, i * 4);
    else if (dtype === '<i8') data.writeBigInt64LE(BigInt(Math.trunc(v)), i * 8);
    else data.writeInt32LE(Math.trunc(v), i * 4);
  });
  return Buffer.concat([head, Buffer.from(header, 'latin1'), data]);
}

/** The file of `p` in `format` (with a weight column `w` where the format has columns); NumPy gives scores and labels. */
export function encode(p: Predictions, format: Format, r: Rand): { bytes: Buffer; labels?: Buffer } {
  const c = (p.probs[0] as number[]).length;
  switch (format) {
    case 'csv': {
      const head = ['id', 'label', ...Array.from({ length: c }, (_, k) => `p_${k}`), 'w'].join(',');
      const rows = p.probs.map((row, i) => [i, p.labels[i], ...row, p.weights[i]].join(','));
      return { bytes: Buffer.from(`${head}\n${rows.join('\n')}\n`) };
    }
    case 'jsonl':
      return {
        bytes: Buffer.from(
          p.probs
            .map((row, i) => `${JSON.stringify({ id: i, label: p.labels[i], probs: row, w: p.weights[i] })}\n`)
            .join(''),
        ),
      };
    case 'json':
      return {
        bytes: Buffer.from(
          JSON.stringify(
            r.chance(0.7)
              ? { labels: p.labels, probs: p.probs }
              : { labels: p.labels, member_probs: [p.probs, p.probs.map((row) => [...row].reverse())] },
          ),
        ),
      };
    case 'parquet': {
      const columns = [
        { name: 'label', data: p.labels, type: 'INT32' },
        ...Array.from({ length: c }, (_, k) => ({
          name: `p_${k}`,
          data: p.probs.map((row) => row[k] as number),
          type: 'DOUBLE',
        })),
        { name: 'w', data: p.weights, type: 'DOUBLE' },
      ];
      return { bytes: Buffer.from(parquetWriteBuffer({ columnData: columns as never, rowGroupSize: 1 + r.int(20) })) };
    }
    case 'npy': {
      const f32 = r.chance(0.3);
      return {
        bytes: npy([p.probs.length, c], p.probs.flat(), f32 ? '<f4' : '<f8'),
        labels: npy([p.labels.length], p.labels, r.chance(0.5) ? '<i8' : '<i4'),
      };
    }
  }
}

/** A valid calibrator of a random kind fitted on `p`, as JSON text. */
export function calibrator(p: Predictions, r: Rand): string {
  const binary = p.probs.map((row) => row[1] as number);
  const y2 = p.labels.map((y) => (y === 1 ? 1 : 0));
  const fits = [
    () => fitTemperature(p.labels, p.probs, { onWarning: () => {} }),
    () => fitIsotonic(p.labels, p.probs),
    () => fitHistogramBinning(p.labels, p.probs, { bins: 1 + r.int(5) }),
    () => fitTopBinning(p.labels, p.probs, { bins: 1 + r.int(3) }),
    () =>
      fitPlatt(
        y2,
        binary.map((x) => Math.min(Math.max(x, 1e-6), 1 - 1e-6)),
        { binary: true },
      ),
  ];
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return JSON.stringify(r.pick(fits)());
    } catch {
      // a fit can refuse a draw of data (too few rows for its bins, one class): another kind
    }
  }
  return JSON.stringify(fitTemperature(p.labels, p.probs, { onWarning: () => {} }));
}

/** Byte sequences worth inserting: quotes, separators, NUL, BOM, invalid UTF-8, line ends, numbers at the edges. */
const INSERTS: readonly Buffer[] = [
  '"',
  "'",
  ',',
  ';',
  '\u0000',
  '\r',
  '\n',
  '\r\n',
  '\t',
  '{',
  '}',
  '[',
  ']',
  ':',
  ' ',
  '1e999',
  '-1e999',
  'NaN',
  'Infinity',
  '-0',
  '1e-400',
  '99999999999999999999999',
  '0x10',
  '1,5',
  'null',
  'true',
  '""',
  '\\',
  '\\u0000',
  '\\ud800',
  'é',
  '\u2028',
]
  .map((s) => Buffer.from(s))
  .concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from([0xff]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0x80]),
    Buffer.alloc(300, 0x61),
  ]);

/** A byte-level mutation of `b`: flips, truncation, insertions, deletions, duplications, swapped lines. */
export function mutateBytes(r: Rand, b: Buffer): Buffer {
  const at = () => r.int(b.length + 1);
  switch (r.int(9)) {
    case 0: {
      const out = Buffer.from(b);
      for (let j = 0, n = 1 + r.int(4); j < n && out.length > 0; j++) {
        const i = r.int(out.length);
        out[i] = (out[i] as number) ^ (1 << r.int(8));
      }
      return out;
    }
    case 1:
      return b.subarray(0, at());
    case 2:
    case 3: {
      const i = at();
      return Buffer.concat([b.subarray(0, i), r.pick(INSERTS), b.subarray(i)]);
    }
    case 4: {
      const i = at();
      return Buffer.concat([b.subarray(0, i), b.subarray(Math.min(b.length, i + 1 + r.int(20)))]);
    }
    case 5: {
      const i = at();
      const j = Math.min(b.length, i + r.int(200));
      return Buffer.concat([b.subarray(0, j), b.subarray(i, j), b.subarray(j)]);
    }
    case 6: {
      const lines = b.toString('latin1').split('\n');
      if (lines.length > 2) {
        const i = r.int(lines.length);
        const j = r.int(lines.length);
        [lines[i], lines[j]] = [lines[j] as string, lines[i] as string];
      }
      return Buffer.from(lines.join('\n'), 'latin1');
    }
    case 7:
      return Buffer.concat([
        r.chance(0.5) ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
        b,
        r.chance(0.5) ? r.pick(INSERTS) : Buffer.alloc(0),
      ]);
    default:
      return Buffer.alloc(0);
  }
}

/** A text-level mutation of a CSV or JSON Lines file: a header cell or key renamed, dropped or doubled, a number replaced. */
export function mutateText(r: Rand, b: Buffer, format: Format): Buffer {
  const lines = b.toString('utf8').split('\n');
  const i = format === 'csv' && r.chance(0.5) ? 0 : r.int(lines.length);
  const line = lines[i] ?? '';
  const cells = line.split(',');
  const j = r.int(cells.length);
  const special = String(r.pick(SPECIAL_NUMBERS));
  switch (r.int(5)) {
    case 0:
      cells[j] = r.pick(['label', 'p_0', 'p_1', 'p_9', 'w', '', 'LABEL', ' label', 'p_-1', '"label"', 'p_0"']);
      break;
    case 1:
      cells.splice(j, 1);
      break;
    case 2:
      cells.splice(j, 0, cells[j] ?? 'x');
      break;
    case 3:
      cells[j] = (cells[j] ?? '').replace(/-?\d+(\.\d+)?(e-?\d+)?/, special);
      break;
    default:
      cells[j] = (cells[j] ?? '').replace(
        /"[a-z_]+"/,
        `"${r.pick(['labels', 'prob', 'probs', 'logits', 'w', 'label', '__proto__'])}"`,
      );
  }
  lines[i] = cells.join(',');
  return Buffer.from(lines.join('\n'));
}

/** A NumPy file whose header lies: another shape, dtype, byte order or Fortran order over the same data. */
export function mutateNpyHeader(r: Rand, b: Buffer): Buffer {
  const text = b.toString('latin1');
  const m = /\{.*\}/.exec(text);
  if (m === null) return b;
  let header = m[0];
  switch (r.int(5)) {
    case 0:
      header = header.replace(
        /'shape': \([^)]*\)/,
        `'shape': (${r.pick(['0,', '-5, 3', '3', '1, 1, 1, 1', '100000000000, 2', '2, 100000000000', '1e3, 2', '2, 3, 4', 'x'])})`,
      );
      break;
    case 1:
      header = header.replace(
        /'descr': '[^']*'/,
        `'descr': '${r.pick(['>f8', '<f2', '|b1', '<c16', '<U5', '|O', '<i2', '<u8', 'x'])}'`,
      );
      break;
    case 2:
      header = header.replace('False', 'True');
      break;
    case 3:
      header = header.replace(
        /'shape': \((\d+), (\d+)\)/,
        (_, a: string, c: string) => `'shape': (${Number(a) + r.pick([-1, 1, 7])}, ${c})`,
      );
      break;
    default:
      header = header.replace(/[{}]/, r.pick(['', '(', '{{']));
  }
  const out = Buffer.from(
    text.replace(m[0], header.padEnd(m[0].length, ' ').slice(0, Math.max(m[0].length, header.length))),
    'latin1',
  );
  // a header that grew changes the data offset: the length field is left as it was (a lie as well)
  return out;
}

/** A Parquet file whose footer metadata is edited: row counts, column types or counts that the data does not hold. */
export function mutateParquet(r: Rand, b: Buffer): Buffer {
  const buf = b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
  let m: FileMetaData & { num_rows: bigint };
  try {
    m = parquetMetadata(buf) as FileMetaData & { num_rows: bigint };
  } catch {
    return b;
  }
  const metaLength = new DataView(buf).getUint32(buf.byteLength - 8, true);
  const groups = m.row_groups as unknown as {
    num_rows: bigint;
    columns: { meta_data?: { num_values: bigint; type?: string } }[];
  }[];
  const g = groups.length === 0 ? undefined : r.pick(groups);
  switch (r.int(5)) {
    case 0:
      m.num_rows = r.pick([-5n, 0n, 2n ** 62n, m.num_rows + 1n, m.num_rows - 1n]);
      break;
    case 1:
      if (g !== undefined) g.num_rows = r.pick([-1n, 0n, g.num_rows + 3n, 2n ** 40n]);
      break;
    case 2: {
      const col = g?.columns[r.int(g.columns.length)]?.meta_data;
      if (col !== undefined) col.num_values = r.pick([0n, -1n, col.num_values + 1n, 2n ** 50n]);
      break;
    }
    case 3:
      m.row_groups = [] as never;
      break;
    default: {
      const col = g?.columns[r.int(g.columns.length)]?.meta_data;
      if (col !== undefined) col.type = r.pick(['BYTE_ARRAY', 'BOOLEAN', 'INT96', 'FLOAT']);
    }
  }
  const w = new ByteWriter();
  try {
    writeMetadata(w, m);
  } catch {
    return b;
  }
  const meta = new Uint8Array(w.getBuffer());
  const length = Buffer.alloc(4);
  length.writeUInt32LE(meta.length);
  return Buffer.concat([b.subarray(0, b.length - 8 - metaLength), meta, length, Buffer.from('PAR1')]);
}

/** A JSON document (a calibrator, a JSON predictions file) with one value changed by the API fuzz's mutations. */
export function mutateJson(r: Rand, text: string, v: Vocabulary): string {
  const json = JSON.parse(text) as Record<string, unknown>;
  const paths: [Record<string, unknown>, string][] = [];
  const walk = (o: unknown, depth: number): void => {
    if (o === null || typeof o !== 'object' || depth > 4) return;
    for (const k of Object.keys(o)) {
      paths.push([o as Record<string, unknown>, k]);
      walk((o as Record<string, unknown>)[k], depth + 1);
    }
  };
  walk(json, 0);
  const [parent, key] = r.pick(paths);
  parent[key] = mutateValue(r, clone(parent[key]), key, v);
  return JSON.stringify(json, (_k, x: unknown) =>
    typeof x === 'bigint' ? Number(x) : typeof x === 'symbol' || typeof x === 'function' ? String(x) : x,
  );
}
