import { existsSync, mkdirSync, readFileSync, unwatchFile, watch, watchFile } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileDurablySync } from '@predgate/core';
import { checkedKeys } from './key-store.js';
import type { KeyRecords, ManagedKey } from './key-store.js';

export const keysFileName = 'api-keys.json';

/** How often the stat-based fallback looks at the file, for file systems whose change events never come (some network and container mounts). */
const statIntervalMs = 500;

/** Managed keys in `api-keys.json` of the data directory (mode 0600), rewritten whole on every change. */
export class KeyFile implements KeyRecords {
  readonly location: string;

  constructor(dataDir: string) {
    this.location = join(dataDir, keysFileName);
  }

  async read(): Promise<ManagedKey[]> {
    return this.readNow();
  }

  async add(key: ManagedKey): Promise<void> {
    this.write([...this.readNow(), key]);
  }

  async remove(id: string): Promise<boolean> {
    const keys = this.readNow();
    const kept = keys.filter((key) => key.id !== id);
    if (kept.length === keys.length) return false;
    this.write(kept);
    return true;
  }

  /**
   * Change events of the folder (the file is replaced by a rename, which a
   * watch on the file itself would lose), and a stat of the file every
   * half second in case those events never come.
   */
  watch(changed: () => void): () => void {
    const folder = dirname(this.location);
    mkdirSync(folder, { recursive: true });
    const folderWatch = watch(folder, { persistent: false }, (_event, name) => {
      if (name === null || name === keysFileName) changed();
    });
    // A watch that fails (the folder removed, the watcher limit reached) leaves the stat fallback on duty.
    folderWatch.on('error', () => folderWatch.close());
    const statListener = () => changed();
    watchFile(this.location, { persistent: false, interval: statIntervalMs }, statListener);
    return () => {
      folderWatch.close();
      unwatchFile(this.location, statListener);
    };
  }

  async close(): Promise<void> {}

  private readNow(): ManagedKey[] {
    if (!existsSync(this.location)) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.location, 'utf8'));
    } catch (error) {
      throw new Error(`${this.location} is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    return checkedKeys((parsed as { keys?: unknown } | null)?.keys, this.location);
  }

  private write(keys: readonly ManagedKey[]): void {
    // Neither a crash nor a power cut leaves a half-written keys file.
    writeFileDurablySync(this.location, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
  }
}
