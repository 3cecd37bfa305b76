import { hash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurablySync } from '@predgate/core';

export interface StoredKey {
  id: string;
  /** SHA-256 of the key, hex. The key itself is never kept. */
  hash: string;
  label?: string;
  createdAt: string;
  /** `file` keys are managed with `predgate keys`; `env` keys come from PREDGATE_API_KEYS. */
  source: 'file' | 'env';
}

interface KeysFile {
  keys: Array<Omit<StoredKey, 'source'>>;
}

export const keysFileName = 'api-keys.json';

/**
 * API keys, kept as SHA-256 digests in memory and on disk. A presented key is
 * hashed once and looked up by its digest: one hash and one map lookup per
 * request whatever the number of keys. What the lookup's timing could reveal
 * is a prefix of a digest, which says nothing about any key.
 */
export class KeyStore {
  private keys: StoredKey[];
  private byDigest = new Map<string, StoredKey>();

  private constructor(
    readonly path: string,
    fileKeys: StoredKey[],
    envKeys: StoredKey[],
  ) {
    this.keys = [...envKeys, ...fileKeys];
    this.index();
  }

  /** Opens the keys file in `dataDir` (absent is empty) and adds the environment's keys. */
  static open(dataDir: string, environmentKeys: readonly string[] = []): KeyStore {
    const path = join(dataDir, keysFileName);
    const file: KeysFile = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as KeysFile) : { keys: [] };
    const envKeys = environmentKeys.map((key, index) => ({
      id: `env-${index + 1}`,
      hash: digest(key),
      createdAt: new Date(0).toISOString(),
      source: 'env' as const,
    }));
    return new KeyStore(
      path,
      file.keys.map((key) => ({ ...key, source: 'file' as const })),
      envKeys,
    );
  }

  get size(): number {
    return this.keys.length;
  }

  /** The stored key matching the presented one, if any. */
  verify(presented: string): StoredKey | undefined {
    return this.byDigest.get(digest(presented));
  }

  private index(): void {
    // The first key with a digest wins, as it did when keys were scanned in order.
    this.byDigest = new Map([...this.keys].reverse().map((key) => [key.hash, key]));
  }

  /** Creates a key, stores its digest, and returns the key: the only time it is ever seen. */
  create(label?: string, now = new Date()): { key: string; record: StoredKey } {
    const key = `pg_${randomBytes(24).toString('base64url')}`;
    const record: StoredKey = {
      id: `key_${randomBytes(4).toString('hex')}`,
      hash: digest(key),
      createdAt: now.toISOString(),
      source: 'file',
      ...(label ? { label } : {}),
    };
    this.keys.push(record);
    this.index();
    this.save();
    return { key, record };
  }

  list(): StoredKey[] {
    return this.keys.map((key) => ({ ...key }));
  }

  /** Removes a file key; environment keys are revoked by changing the environment. */
  revoke(id: string): boolean {
    const before = this.keys.length;
    this.keys = this.keys.filter((key) => key.source !== 'file' || key.id !== id);
    if (this.keys.length === before) return false;
    this.index();
    this.save();
    return true;
  }

  private save(): void {
    const file: KeysFile = {
      keys: this.keys.filter((key) => key.source === 'file').map(({ source: _source, ...key }) => key),
    };
    // Neither a crash nor a power cut leaves a half-written keys file.
    writeFileDurablySync(this.path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  }
}

// The one-shot hash: every request's key is digested, and a Hash object per call costs several times the digest itself.
function digest(key: string): string {
  return hash('sha256', key, 'hex');
}
