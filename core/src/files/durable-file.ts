import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Files that a crash or a power cut leaves either as they were or whole, never
 * half-written: the new contents go to a temporary file beside the target,
 * which is synced to disk, renamed over the target (a rename within one
 * directory is atomic), and then the directory is synced so the rename itself
 * survives a power cut.
 */

export interface DurableWriteOptions {
  /** Permission bits of a file created (0o600 for secrets). Default 0o666 less the umask. */
  mode?: number;
}

/**
 * Replaces `path` whole with what `write` puts in the temporary file it is
 * given (a path beside `path`; `write` opens, writes and closes it). Answers
 * what `write` answers. When `write` or a sync fails, the temporary file is
 * removed and `path` is left as it was.
 */
export async function replaceFile<T>(path: string, write: (temporary: string) => Promise<T>): Promise<T> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const temporary = temporaryPath(path);
  try {
    const result = await write(temporary);
    await syncPath(temporary);
    await rename(temporary, path);
    await syncPath(directory);
    return result;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Replaces `path` whole with `contents` (see `replaceFile`). */
export async function writeFileDurably(path: string, contents: string | Uint8Array, options: DurableWriteOptions = {}): Promise<void> {
  await replaceFile(path, async (temporary) => {
    const file = await open(temporary, 'wx', options.mode);
    try {
      await file.writeFile(contents);
    } finally {
      await file.close();
    }
  });
}

/** `writeFileDurably` for the few callers that cannot wait: it blocks the event loop for the writes and syncs. */
export function writeFileDurablySync(path: string, contents: string | Uint8Array, options: DurableWriteOptions = {}): void {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  const temporary = temporaryPath(path);
  try {
    const handle = openSync(temporary, 'wx', options.mode);
    try {
      const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
      for (let written = 0; written < bytes.length;) written += writeSync(handle, bytes, written, bytes.length - written);
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    renameSync(temporary, path);
    syncPathSync(directory);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Waits until a file's contents, or a directory's entries (files created,
 * renamed or removed in it), are on disk, whichever descriptor wrote them.
 */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `syncPath`, blocking. */
export function syncPathSync(path: string): void {
  const handle = openSync(path, 'r');
  try {
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
}

// Unique per write, so two processes (or two writes in one) replacing the same file never write into each other's temporary file.
function temporaryPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}
