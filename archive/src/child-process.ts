import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/**
 * Node flags of the archive's processes: a heap cap well above what they hold
 * (a recording process at 40,000 tokens keeps about 160 MB live; a roll one
 * row group), so V8 collects its garbage instead of growing the heap past the
 * memory goal first.
 */
export const archiveProcessFlags = ['--max-old-space-size=1024'];

/**
 * The recording process's flags: the archive processes' own, and a young
 * generation of 64 MB semi-spaces (V8's default is 16 MB). Recording makes
 * several kilobytes of short-lived objects per message (a frame's parsed
 * tree, its rows); with the default, the frequent young collections copied
 * and promoted objects just before they died (2M rows, two loaded runs:
 * scavenges 683 -> 185 and 636 -> 187, taking 13.1 -> 3.5 s and 6.3 -> 5.1 s;
 * old-space collections 28 -> 9 and 12 -> 6; about 60-100 MB more memory).
 */
export const recordingProcessFlags = [...archiveProcessFlags, '--max-semi-space-size=64'];

/**
 * Forks one of this package's process entry points with a JSON argument and an
 * IPC channel. Under the TypeScript sources (tests, `pnpm start`) the child
 * loads them the way this process does; built, it runs the compiled file.
 */
export function forkArchiveProcess(entry: 'roll-process' | 'recording-process', argument: unknown): ChildProcess {
  const source = import.meta.url.endsWith('.ts');
  return fork(new URL(`./${entry}.${source ? 'ts' : 'js'}`, import.meta.url), [JSON.stringify(argument)], {
    execArgv: [
      ...(source ? ['--conditions=predgate-source', '--import', 'tsx'] : process.execArgv),
      ...(entry === 'recording-process' ? recordingProcessFlags : archiveProcessFlags),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Structured clone, not JSON: books and rows cross as they are (an unbounded `since` is Infinity).
    serialization: 'advanced',
  });
}
