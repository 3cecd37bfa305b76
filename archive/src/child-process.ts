import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/**
 * Forks one of this package's process entry points with a JSON argument and an
 * IPC channel. Under the TypeScript sources (tests, `pnpm start`) the child
 * loads them the way this process does; built, it runs the compiled file.
 */
export function forkArchiveProcess(entry: 'roll-process' | 'recording-process', argument: unknown): ChildProcess {
  const source = import.meta.url.endsWith('.ts');
  return fork(new URL(`./${entry}.${source ? 'ts' : 'js'}`, import.meta.url), [JSON.stringify(argument)], {
    execArgv: source ? ['--conditions=predgate-source', '--import', 'tsx'] : process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Structured clone, not JSON: books and rows cross as they are (an unbounded `since` is Infinity).
    serialization: 'advanced',
  });
}
