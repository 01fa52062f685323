/**
 * The sequential readers close what they open before they return: a FIFO still open for reading would take the next
 * writer's bytes (with `FileHandle.createReadStream`, about 3 % of reads left the descriptor open after `close()`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPredictions, streamPredictions } from '../../src/io/index.js';
import { feedFifo } from '../helpers/hostile.js';

const dir = mkdtempSync(join(tmpdir(), 'um-fifo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The descriptors of this process open on `path` (Linux's /proc). */
function openOn(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed while listed
    }
  }).length;
}

const FILES = {
  jsonl: '{"label":0,"probs":[0.8,0.2]}\n{"label":1,"probs":[0.3,0.7]}\n{"label":1,"probs":[0.4,0.6]}\n',
  csv: 'label,p_0,p_1\n0,0.8,0.2\n1,0.3,0.7\n1,0.4,0.6\n',
};

describe('a FIFO read again and again: every read gets its own writer’s rows and closes the FIFO', () => {
  for (const [ext, text] of Object.entries(FILES)) {
    it.runIf(process.platform === 'linux')(`${ext} (Linux: the open descriptors are read from /proc)`, async () => {
      const fifo = join(dir, `fifo.${ext}`);
      execFileSync('mkfifo', [fifo]);
      const rows: number[] = [];
      let open = 0;
      for (let i = 0; i < 60; i++) {
        const feeding = feedFifo(fifo, Buffer.from(text));
        if (i % 2 === 0) rows.push((await readPredictions(fifo)).n);
        else {
          let n = 0;
          for await (const b of streamPredictions(fifo, { batchRows: 2 })) n += b.n;
          rows.push(n);
        }
        await feeding;
        open += openOn(fifo);
      }
      expect(open).toBe(0);
      expect(rows).toEqual(Array.from({ length: 60 }, () => 3));
    });
  }
});
