import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, chmod, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UMError } from '../errors/UMError.js';

/** An output file checked by {@link prepareOutput}, ready for {@link writeOutput}. */
export interface Output {
  /** The path as the user gave it (for messages). */
  readonly path: string;
  /** The flag that named it (`--output`). */
  readonly flag: string;
  /** The file to replace (symbolic links followed, so a link keeps pointing at the new content). */
  readonly target: string;
  /** A FIFO or a device (`/dev/stdout`) is written in place: it cannot be replaced by a rename. */
  readonly inPlace: boolean;
  /** Permission bits of the file replaced, kept on the new one. */
  readonly mode?: number;
}

/** Writes the chunks to an open file (replaceable in tests, to fail midway). */
export type ChunkWriter = (handle: FileHandle, chunks: Iterable<string | Uint8Array>) => Promise<void>;

const writeChunks: ChunkWriter = async (handle, chunks) => {
  for (const chunk of chunks) await handle.writeFile(chunk);
};

function fail(
  command: string,
  out: { path: string; flag: string },
  problem: string,
  code: 'UM_FILE_WRITE' | 'UM_OPTION' = 'UM_FILE_WRITE',
): never {
  throw new UMError(code, `${command}: ${out.flag} ${out.path}: ${problem}`, {
    fn: command,
    argument: out.flag,
    file: out.path,
  });
}

/** Plain words for a failed file operation. */
function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a part of the path is not a directory',
    EISDIR: 'is a directory',
    EIO: 'input/output error',
    EFBIG: 'file too large',
    ENAMETOOLONG: 'file name too long',
  };
  if (typeof code === 'string' && words[code] !== undefined) return words[code];
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A temporary name in the target's directory, hidden, marked as ours. */
function temporaryName(target: string): string {
  return join(dirname(target), `.${basename(target)}.um-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Checks, before any work, that `path` can be written and is none of the `inputs` (internal; every command that
 * writes a file calls it first, so a fit or a report is never computed only to be lost): the directory exists and
 * accepts a new file (tried by creating and removing one), the path is not a directory, not read-only, and not the
 * same file as an input (compared by device and inode, so symbolic links, hard links and other spellings of the path
 * are caught). Exit code 2 with one line otherwise.
 */
export async function prepareOutput(
  command: string,
  flag: string,
  path: string,
  inputs: readonly unknown[],
): Promise<Output> {
  const out = { path, flag };
  let s: Stats | undefined;
  try {
    s = await statOrUndefined(path);
  } catch (error) {
    fail(command, out, `cannot be written (${reason(error)})`);
  }
  if (s?.isDirectory() === true) fail(command, out, 'is a directory; give a file name');
  if (s !== undefined) {
    for (const input of inputs.flat()) {
      if (typeof input !== 'string') continue;
      const t = await statOrUndefined(input).catch(() => undefined);
      if (t !== undefined && t.dev === s.dev && t.ino === s.ino) {
        fail(
          command,
          out,
          `is the input ${input}; writing it would destroy the input — choose another output file`,
          'UM_OPTION',
        );
      }
    }
    if (!s.isFile()) return { path, flag, target: path, inPlace: true };
    try {
      await access(path, constants.W_OK);
    } catch {
      fail(command, out, 'is read-only');
    }
  }
  let target: string;
  try {
    target = s === undefined ? join(await realpath(dirname(path)), basename(path)) : await realpath(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    fail(
      command,
      out,
      code === 'ENOENT' ? `the directory ${dirname(path)} does not exist` : `cannot be written (${reason(error)})`,
    );
  }
  // the one reliable test of permission (and of a read-only file system) is to create a file there
  const probe = temporaryName(target);
  try {
    await (await open(probe, 'wx')).close();
    await unlink(probe);
  } catch (error) {
    fail(command, out, `cannot create a file in ${dirname(target)} (${reason(error)})`);
  }
  return { path, flag, target, inPlace: false, ...(s === undefined ? {} : { mode: s.mode & 0o7777 }) };
}

/**
 * Writes an output atomically (internal; the one way the CLI writes files): into a temporary file in the same
 * directory, flushed to disk, then renamed over the target — so the target is at every moment either the previous
 * file (or absent) or the complete new one, even if the process is killed. A failed write removes the temporary
 * file, leaves the target as it was and exits 2 saying so (`lost` names what was not saved).
 */
export async function writeOutput(
  command: string,
  out: Output,
  chunks: Iterable<string | Uint8Array>,
  lost?: string,
  write: ChunkWriter = writeChunks,
): Promise<void> {
  const failed = (error: unknown): never => {
    const kept = out.inPlace
      ? ''
      : out.mode === undefined
        ? `; no file was created`
        : `; the previous ${out.path} is unchanged`;
    throw new UMError(
      'UM_FILE_WRITE',
      `${command}: cannot write ${out.path} (${reason(error)})${kept}${lost === undefined ? '' : `; ${lost}`}`,
      { fn: command, argument: out.flag, file: out.path },
    );
  };
  if (out.inPlace) {
    let handle: FileHandle | undefined;
    try {
      handle = await open(out.target, 'w');
      await write(handle, chunks);
      await handle.close();
    } catch (error) {
      await handle?.close().catch(() => undefined);
      failed(error);
    }
    return;
  }
  const temp = temporaryName(out.target);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', out.mode ?? 0o666);
    await write(handle, chunks);
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (out.mode !== undefined) await chmod(temp, out.mode);
    await rename(temp, out.target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    failed(error);
  }
}
