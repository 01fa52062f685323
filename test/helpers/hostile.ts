/**
 * Hostile input files for the readers and the commands (shared by test/io and test/cli): broken CSV quoting, seeded
 * random bytes, a BOM, invalid UTF-8, truncated NumPy arrays, corrupt Parquet row counts, /dev/zero, a FIFO whose
 * writer closes, a directory and an unreadable file. Each case says whether it must be read (`ok`) or rejected
 * with `UM_…` code and a message matching `message` (which names the place).
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parquetMetadata, type FileMetaData } from 'hyparquet';
import { ByteWriter, parquetWriteBuffer } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { minstd } from './minstd.js';

export interface HostileCase {
  name: string;
  /** The file to read. */
  file: string;
  /** Labels `.npy` for NumPy scores. */
  labels?: string;
  /** Read options beyond the file (and `labels`). */
  options?: { weightColumn?: string };
  /**
   * `ok`: read without error; `any`: any `UMError` or none (seeded random bytes); otherwise the error code and a
   * message pattern (it names the place).
   */
  expect: 'ok' | 'any' | { code: string; message: RegExp };
  /** A FIFO: the bytes a writer sends before closing it (start it with {@link feedFifo} for each read). */
  fifo?: Buffer;
  /** Whether reading it must go through a real process (FIFO, device), or may run in this one. */
  device?: boolean;
}

const GOOD_CSV = 'id,label,p_0,p_1\n1,0,0.8,0.2\n2,1,0.3,0.7\n3,1,0.4,0.6\n4,0,0.9,0.1\n';
const GOOD_JSONL = '{"label":0,"probs":[0.8,0.2]}\n{"label":1,"probs":[0.3,0.7]}\n{"label":1,"probs":[0.4,0.6]}\n';

/** A NumPy v1 `.npy` of float64 (or float32, or int64 labels) data. */
export function npy(shape: number[], values: number[], dtype: '<f8' | '<f4' | '<i8' = '<f8'): Buffer {
  let header = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const size = dtype === '<f4' ? 4 : 8;
  const data = Buffer.alloc(values.length * size);
  values.forEach((v, i) =>
    dtype === '<f8'
      ? data.writeDoubleLE(v, i * 8)
      : dtype === '<f4'
        ? data.writeFloatLE(v, i * 4)
        : data.writeBigInt64LE(BigInt(v), i * 8),
  );
  return Buffer.concat([head, Buffer.from(header, 'latin1'), data]);
}

/** Probabilities of `n` rows × `c` classes (seeded), rows summing to 1. */
function probabilities(n: number, c: number, seed: number): number[] {
  const u = minstd(seed, n * c);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = u.slice(i * c, (i + 1) * c).map((x) => x + 0.01);
    const s = row.reduce((a, b) => a + b, 0);
    out.push(...row.map((x) => x / s));
  }
  return out;
}

/**
 * A Parquet file of 3 rows whose footer metadata is edited by `edit` (row counts the data does not hold): a label and
 * two score columns, or (`list`) only a list column of probabilities, whose rows the metadata's value counts do not show.
 */
function parquet(edit: (m: FileMetaData & { num_rows: bigint }) => void, list = false): Buffer {
  const buf = parquetWriteBuffer({
    columnData: list
      ? [
          {
            name: 'probs',
            data: [
              [0.9, 0.1],
              [0.2, 0.8],
              [0.4, 0.6],
            ],
          },
        ]
      : [
          { name: 'label', data: [0, 1, 1], type: 'INT32' },
          { name: 'p_0', data: [0.9, 0.2, 0.4], type: 'DOUBLE' },
          { name: 'p_1', data: [0.1, 0.8, 0.6], type: 'DOUBLE' },
        ],
  });
  const m = parquetMetadata(buf) as FileMetaData & { num_rows: bigint };
  const metaLength = new DataView(buf).getUint32(buf.byteLength - 8, true);
  edit(m);
  const w = new ByteWriter();
  writeMetadata(w, m);
  const meta = new Uint8Array(w.getBuffer());
  const length = Buffer.alloc(4);
  length.writeUInt32LE(meta.length);
  return Buffer.concat([new Uint8Array(buf, 0, buf.byteLength - 8 - metaLength), meta, length, Buffer.from('PAR1')]);
}

/** Seeded random bytes. */
function randomBytes(seed: number, count: number): Buffer {
  return Buffer.from(minstd(seed, count).map((u) => Math.floor(u * 256)));
}

const UTF8 = /is not valid UTF-8 text \(bytes \\x[0-9a-f]{2}/;
const fmt = (message: RegExp) => ({ code: 'UM_FILE_FORMAT', message });

/**
 * Starts a writer that sends `bytes` into the FIFO and closes it (it waits until a reader opens the FIFO). A reader
 * that closes before reading everything (a command stopping at the first bad line) is its right: the writer's EPIPE
 * is not an error (it was an unhandled rejection that stalled the one-process hostile test until its time limit).
 */
export async function feedFifo(path: string, bytes: Buffer): Promise<void> {
  const h = await open(path, 'w');
  try {
    await h.writeFile(bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  } finally {
    await h.close();
  }
}

/** Writes every hostile case into `dir` and lists them. */
export function hostileFiles(dir: string): HostileCase[] {
  const cases: HostileCase[] = [];
  const put = (name: string, bytes: string | Buffer, rest: Omit<HostileCase, 'name' | 'file'>, file = name): void => {
    writeFileSync(join(dir, file), bytes);
    cases.push({ name, file: join(dir, file), ...rest });
  };
  // CSV quoting and parser errors: a located UM_FILE_FORMAT, never a parser stack trace
  put('quote-in-field.csv', 'id,label,p_0,p_1\n1,0,0.8,0.2\n2,1,x"y,0.5\n', {
    expect: fmt(/quote-in-field\.csv: line 3, column 3: a quote inside an unquoted field/),
  });
  put('quote-in-header.csv', 'id,la"bel,p_0,p_1\n1,0,0.8,0.2\n', {
    expect: fmt(/quote-in-header\.csv: line 1, column 2: a quote inside an unquoted field/),
  });
  put('quote-then-text.csv', 'id,label,p_0,p_1\n1,0,"0.8"x,0.2\n', {
    expect: fmt(/quote-then-text\.csv: line 2, column 3: a closing quote is followed by other characters/),
  });
  put('quote-unclosed.csv', 'id,label,p_0,p_1\n1,0,"0.8,0.2\n2,1,0.3,0.7\n', {
    expect: fmt(/quote-unclosed\.csv: line \d+, column \d+: a quoted field is never closed/),
  });
  put('ragged.csv', 'id,label,p_0,p_1\n1,0,0.8,0.2\n2,1,0.3\n', {
    expect: fmt(/ragged\.csv: line 3: expected 4 fields like the header, got 3$/),
  });
  put('ragged-first.csv', 'id,label,p_0,p_1\n1,0,0.8\n', {
    expect: fmt(/ragged-first\.csv: line 2: expected 4 fields like the header, got 3$/),
  });
  put('label-twice.csv', 'label,id,label,p_0,p_1\n0,1,1,0.8,0.2\n', {
    expect: fmt(/label-twice\.csv: line 1, column 3: the label column "label" appears twice \(columns 1 and 3\)/),
  });
  put('weight-twice.csv', 'w,label,p_0,p_1,w\n1,0,0.8,0.2,2\n', {
    options: { weightColumn: 'w' },
    expect: fmt(/weight-twice\.csv: line 1, column 5: the weight column "w" appears twice/),
  });
  // encodings: a UTF-8 BOM is accepted in every text format; other bytes that are not UTF-8 are located
  put('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(GOOD_CSV)]), { expect: 'ok' });
  put('bom.jsonl', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(GOOD_JSONL)]), { expect: 'ok' });
  put(
    'bom.json',
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"labels":[0,1],"probs":[[0.8,0.2],[0.3,0.7]]}')]),
    { expect: 'ok' },
  );
  put(
    'latin1-header.csv',
    Buffer.concat([Buffer.from('id,label,p_0,p_1,caf'), Buffer.from([0xe9]), Buffer.from('\n1,0,0.8,0.2,1\n')]),
    { expect: fmt(new RegExp(`latin1-header\\.csv: line 1, byte 20: ${UTF8.source}`)) },
  );
  put(
    'latin1-cell.csv',
    Buffer.concat([
      Buffer.from('id,label,p_0,p_1\n1,0,0.8,0.2\n'),
      Buffer.from([0x41, 0xff]),
      Buffer.from(',1,0.3,0.7\n'),
    ]),
    { expect: fmt(new RegExp(`latin1-cell\\.csv: line 3, byte 30: ${UTF8.source}`)) },
  );
  put(
    'overlong.jsonl',
    Buffer.concat([
      Buffer.from(GOOD_JSONL),
      Buffer.from('{"label":0,"probs":[0.5,0.5],"x":"'),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from('"}\n'),
    ]),
    { expect: fmt(new RegExp(`overlong\\.jsonl: line 4, byte \\d+: ${UTF8.source}`)) },
  );
  put(
    'surrogate.json',
    Buffer.concat([
      Buffer.from('{"labels":[0],"probs":[[0.5,0.5]],"x":"'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"}'),
    ]),
    { expect: fmt(new RegExp(`surrogate\\.json: line 1, byte 39: ${UTF8.source}`)) },
  );
  // seeded random bytes, bare and after a valid header
  for (const seed of [1, 2, 3]) {
    const bytes = randomBytes(seed, 4096);
    for (const ext of ['csv', 'jsonl', 'json', 'npy', 'parquet'])
      cases.push(randomCase(dir, `random-${seed}.${ext}`, bytes));
    cases.push(
      randomCase(dir, `random-after-header-${seed}.csv`, Buffer.concat([Buffer.from('label,p_0,p_1\n'), bytes])),
    );
    cases.push(
      randomCase(
        dir,
        `random-after-magic-${seed}.npy`,
        Buffer.concat([Buffer.from('\x93NUMPY\x01\x00', 'latin1'), bytes]),
      ),
    );
  }
  // NumPy: whole rows missing, a cut element, bytes after the data — in scores (2-D, 3-D) and labels
  const p = probabilities(50, 3, 7);
  const y = Array.from({ length: 50 }, (_, i) => i % 3);
  writeFileSync(join(dir, 'labels50.npy'), npy([50], y, '<i8'));
  const labels = join(dir, 'labels50.npy');
  const scores = npy([50, 3], p);
  put('scores-49-of-50.npy', scores.subarray(0, scores.length - 24), {
    labels,
    expect: fmt(
      /scores-49-of-50\.npy: byte 1304: is truncated: its header declares shape \[50, 3\] \(1328 bytes\), the file has 1304; row 49 is cut off/,
    ),
  });
  put('scores-cut-value.npy', scores.subarray(0, scores.length - 3), {
    labels,
    expect: fmt(/scores-cut-value\.npy: byte 1325: is truncated: .*row 49 is cut off/),
  });
  put('scores-extra.npy', Buffer.concat([scores, Buffer.alloc(8)]), {
    labels,
    expect: fmt(/scores-extra\.npy: byte 1328: has 8 bytes after the data its header declares/),
  });
  const members = npy([4, 50, 3], probabilities(200, 3, 8));
  put('members-cut.npy', members.subarray(0, members.length - 100), {
    labels,
    expect: fmt(/members-cut\.npy: byte 4828: is truncated: .*member 3, row 45 is cut off/),
  });
  put('scores-ok.npy', scores, { labels, expect: 'ok' });
  const lab = npy([50], y, '<i8');
  writeFileSync(join(dir, 'labels-49.npy'), lab.subarray(0, lab.length - 8));
  cases.push({
    name: 'labels-49-of-50.npy',
    file: join(dir, 'scores-ok.npy'),
    labels: join(dir, 'labels-49.npy'),
    expect: fmt(
      /labels-49\.npy: byte 520: is truncated: its header declares shape \[50\] \(528 bytes\), the file has 520; element 49 is cut off/,
    ),
  });
  const badShape = Buffer.from(scores);
  badShape.write("'shape': (-50, 3)", scores.indexOf("'shape'"), 'latin1');
  put('scores-negative-shape.npy', badShape, {
    labels,
    expect: fmt(/scores-negative-shape\.npy: byte 10: has a malformed shape in its .npy header/),
  });
  const hugeHeader = Buffer.from(scores);
  hugeHeader[6] = 2;
  hugeHeader.writeUInt32LE(0xfffffff0, 8);
  put('scores-huge-header.npy', hugeHeader, {
    labels,
    expect: fmt(/scores-huge-header\.npy: byte 8: has a header of 4294967280 bytes; at most 65536 are read/),
  });
  // Parquet: row counts in the metadata that are negative, huge, or disagree with the data
  put(
    'rows-negative.parquet',
    parquet((m) => void (m.num_rows = -5n)),
    {
      expect: fmt(
        /rows-negative\.parquet: the metadata's row count \(num_rows\) must be a whole number of rows in \[0, 2\^53 − 1\]; got "-5"/,
      ),
    },
  );
  put(
    'rows-huge.parquet',
    parquet((m) => {
      m.num_rows = 2n ** 62n;
      (m.row_groups[0] as { num_rows: bigint }).num_rows = 2n ** 62n;
    }),
    {
      expect: fmt(
        /rows-huge\.parquet: the metadata's row count \(num_rows\) must be a whole number of rows in \[0, 2\^53 − 1\]; got "4611686018427387904"/,
      ),
    },
  );
  put(
    'rows-more.parquet',
    parquet((m) => {
      m.num_rows = 5n;
      (m.row_groups[0] as { num_rows: bigint }).num_rows = 5n;
    }),
    { expect: fmt(/rows-more\.parquet: row group 0 declares 5 rows, but its column "label" holds 3 values/) },
  );
  put(
    'rows-fewer.parquet',
    parquet((m) => {
      m.num_rows = 2n;
      (m.row_groups[0] as { num_rows: bigint }).num_rows = 2n;
    }),
    { expect: fmt(/rows-fewer\.parquet: row group 0 declares 2 rows, but its column "label" holds 3 values/) },
  );
  put(
    'rows-list-fewer.parquet',
    parquet((m) => {
      m.num_rows = 2n;
      (m.row_groups[0] as { num_rows: bigint }).num_rows = 2n;
    }, true),
    { expect: fmt(/rows-list-fewer\.parquet: row group 0 declares 2 rows, but its column "probs" holds 3/) },
  );
  put(
    'rows-disagree.parquet',
    parquet((m) => void (m.num_rows = 4n)),
    { expect: fmt(/rows-disagree\.parquet: the metadata declares 4 rows but its row groups hold 3/) },
  );
  // long lines: bounded, not held whole
  put('long-line.jsonl', `{"label":0,"probs":[0.5,0.5],"x":"${'a'.repeat((16 << 20) + 10)}"}\n`, {
    expect: fmt(/long-line\.jsonl: line 1, byte 16777216: the line is longer than 16777216 bytes/),
  });
  // (21 MiB: longer than the CSV fast path's buffer of one step and one record, which must hand the line over)
  put('long-line.csv', `label,p_0,p_1\n0,0.5,0.5${' '.repeat((21 << 20) + 10)}\n`, {
    expect: fmt(/long-line\.csv: line 2, byte 16777230: the line is longer than 16777216 bytes/),
  });
  // devices, FIFOs, directories, unreadable files
  for (const ext of ['csv', 'jsonl']) {
    symlinkSync('/dev/zero', join(dir, `zero.${ext}`));
    cases.push({
      name: `zero.${ext}`,
      file: join(dir, `zero.${ext}`),
      // a labels file only where the format reads one (another format refuses the option)
      ...(ext === 'npy' ? { labels } : {}),
      device: true,
      expect: fmt(new RegExp(`zero\\.${ext}: line 1, byte 16777216: the line is longer than 16777216 bytes`)),
    });
  }
  for (const ext of ['json', 'npy', 'parquet']) {
    symlinkSync('/dev/zero', join(dir, `zero.${ext}`));
    cases.push({
      name: `zero.${ext}`,
      file: join(dir, `zero.${ext}`),
      // a labels file only where the format reads one (another format refuses the option)
      ...(ext === 'npy' ? { labels } : {}),
      device: true,
      expect: {
        code: 'UM_FILE_READ',
        message: new RegExp(`zero\\.${ext}: is a character device; .* needs a regular file`),
      },
    });
  }
  const fifos: [string, Buffer][] = [
    ['csv', Buffer.from(GOOD_CSV)],
    ['jsonl', Buffer.from(GOOD_JSONL)],
  ];
  for (const [ext, bytes] of fifos) {
    execFileSync('mkfifo', [join(dir, `fifo.${ext}`)]);
    cases.push({ name: `fifo.${ext}`, file: join(dir, `fifo.${ext}`), fifo: bytes, device: true, expect: 'ok' });
  }
  for (const ext of ['json', 'npy', 'parquet']) {
    execFileSync('mkfifo', [join(dir, `fifo.${ext}`)]);
    // no writer: rejected by stat before anything opens it (opening would block)
    cases.push({
      name: `fifo.${ext}`,
      file: join(dir, `fifo.${ext}`),
      // a labels file only where the format reads one (another format refuses the option)
      ...(ext === 'npy' ? { labels } : {}),
      device: true,
      expect: {
        code: 'UM_FILE_READ',
        message: new RegExp(`fifo\\.${ext}: is a FIFO \\(named pipe\\); .* needs a regular file`),
      },
    });
  }
  for (const ext of ['csv', 'jsonl', 'json', 'npy', 'parquet']) {
    mkdirSync(join(dir, `folder.${ext}`));
    cases.push({
      name: `folder.${ext}`,
      file: join(dir, `folder.${ext}`),
      ...(ext === 'npy' ? { labels } : {}),
      expect: { code: 'UM_FILE_READ', message: new RegExp(`folder\\.${ext}: is a directory, not a file`) },
    });
  }
  // /proc/self/mem is a file that even root cannot read from offset 0 (EIO); chmod 000 stops other users too
  symlinkSync('/proc/self/mem', join(dir, 'unreadable.csv'));
  cases.push({
    name: 'unreadable.csv',
    file: join(dir, 'unreadable.csv'),
    expect: { code: 'UM_FILE_READ', message: /unreadable\.csv: cannot be read \(/ },
  });
  put('no-permission.jsonl', GOOD_JSONL, {
    expect:
      process.getuid?.() === 0
        ? 'ok'
        : { code: 'UM_FILE_READ', message: /no-permission\.jsonl: cannot be read \(permission denied\)/ },
  });
  chmodSync(join(dir, 'no-permission.jsonl'), 0);
  return cases;
}

/** A random-bytes case: any `UMError` (or none: random bytes may happen to parse), never a crash. */
function randomCase(dir: string, name: string, bytes: Buffer): HostileCase {
  writeFileSync(join(dir, name), bytes);
  return {
    name,
    file: join(dir, name),
    ...(name.endsWith('.npy') ? { labels: join(dir, 'labels50.npy') } : {}),
    expect: 'any',
  };
}
