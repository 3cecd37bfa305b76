import { hash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import Joi from 'joi';

/** A key managed with `predgate keys`, as it is stored: never the key itself. */
export interface ManagedKey {
  id: string;
  /** SHA-256 of the key, hex. */
  hash: string;
  label?: string;
  createdAt: string;
}

export interface StoredKey extends ManagedKey {
  /** `managed` keys come from `predgate keys` (the keys file or MongoDB); `env` keys from PREDGATE_API_KEYS. */
  source: 'managed' | 'env';
}

/**
 * Where managed keys live: the keys file of the data directory, or a
 * collection in the catalog's MongoDB. Every gateway and `predgate keys`
 * reads and writes the same place.
 */
export interface KeyRecords {
  /** Said in messages: the file's path or the collection's name. */
  readonly location: string;
  /** Every managed key; throws when what is stored cannot be read as keys. */
  read(): Promise<ManagedKey[]>;
  add(key: ManagedKey): Promise<void>;
  /** False when no key has that id. */
  remove(id: string): Promise<boolean>;
  /** Calls `changed` soon after the keys may have changed, by this process or another; the returned function stops watching. */
  watch(changed: () => void): () => void;
  close(): Promise<void>;
}

export interface KeyStoreOptions {
  /** Plain keys from the environment; hashed at once. */
  environmentKeys?: readonly string[];
  /** Follow changes made elsewhere (another process, `predgate keys`): what a running gateway does. */
  live?: boolean;
  logger?: Pick<Logger, 'warn' | 'info'>;
}

/** Only the digest and the stated fields: a stored record is outside input like any other. */
export const managedKeysSchema = Joi.array()
  .items(
    Joi.object<ManagedKey>({
      id: Joi.string().max(64).required(),
      hash: Joi.string()
        .pattern(/^[0-9a-f]{64}$/)
        .required(),
      label: Joi.string().allow('').max(200),
      createdAt: Joi.string().isoDate().required(),
    }).unknown(true),
  )
  .required();

/**
 * API keys, kept as SHA-256 digests. A presented key is hashed once and
 * looked up by its digest: one hash and one map lookup per request whatever
 * the number of keys. What the lookup's timing could reveal is a prefix of a
 * digest, which says nothing about any key.
 *
 * A live store follows its records: when they change it reads them again and
 * swaps its index in one step, and emits `reload`. Records that cannot be
 * read (a file half-written by an editor) keep the previous keys, with one
 * warning until they can be read again.
 */
export class KeyStore extends EventEmitter<{ reload: [size: number]; reloadFailed: [error: Error] }> {
  private keys: StoredKey[] = [];
  private byDigest = new Map<string, StoredKey>();
  private readonly envKeys: StoredKey[];
  private stopWatching: (() => void) | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> | undefined;
  private reloadAgain = false;
  private failure: string | undefined;

  private constructor(
    readonly records: KeyRecords,
    private readonly options: KeyStoreOptions,
  ) {
    super();
    this.envKeys = (options.environmentKeys ?? []).map((key, index) => ({
      id: `env-${index + 1}`,
      hash: digest(key),
      createdAt: new Date(0).toISOString(),
      source: 'env' as const,
    }));
  }

  static async open(records: KeyRecords, options: KeyStoreOptions = {}): Promise<KeyStore> {
    const store = new KeyStore(records, options);
    store.index(await records.read());
    if (options.live) store.stopWatching = records.watch(() => store.changed());
    return store;
  }

  /** Where managed keys live. */
  get location(): string {
    return this.records.location;
  }

  get size(): number {
    return this.keys.length;
  }

  /** The stored key matching the presented one, if any. */
  verify(presented: string): StoredKey | undefined {
    return this.byDigest.get(digest(presented));
  }

  /** Whether a key verified earlier is still in force (not revoked since). */
  isCurrent(key: StoredKey): boolean {
    return this.byDigest.get(key.hash)?.id === key.id;
  }

  list(): StoredKey[] {
    return this.keys.map((key) => ({ ...key }));
  }

  /** Creates a key, stores its digest, and returns the key: the only time it is ever seen. */
  async create(label?: string, now = new Date()): Promise<{ key: string; record: StoredKey }> {
    const key = `pg_${randomBytes(24).toString('base64url')}`;
    const managed: ManagedKey = { id: `key_${randomBytes(4).toString('hex')}`, hash: digest(key), createdAt: now.toISOString(), ...(label ? { label } : {}) };
    await this.records.add(managed);
    await this.reload();
    return { key, record: { ...managed, source: 'managed' } };
  }

  /** Removes a managed key; environment keys are revoked by changing the environment. */
  async revoke(id: string): Promise<boolean> {
    const removed = await this.records.remove(id);
    await this.reload();
    return removed;
  }

  /** A new key with the old one's label, then the old one revoked: clients switch to the new key. */
  async rotate(id: string, now = new Date()): Promise<{ key: string; record: StoredKey } | undefined> {
    const old = this.keys.find((key) => key.source === 'managed' && key.id === id);
    if (!old) return undefined;
    const created = await this.create(old.label, now);
    await this.revoke(id);
    return created;
  }

  /** Reads the records again now; what a live store does by itself on every change. */
  async reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = this.readRecords().finally(() => {
      this.reloading = undefined;
      if (this.reloadAgain) {
        this.reloadAgain = false;
        void this.reload();
      }
    });
    return this.reloading;
  }

  async close(): Promise<void> {
    this.stopWatching?.();
    clearTimeout(this.reloadTimer);
    await this.reloading;
    await this.records.close();
  }

  // Writes come in bursts (an editor writes, truncates and renames; a watcher reports each): read once after them.
  private changed(): void {
    if (this.reloadTimer) return;
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      void this.reload();
    }, reloadDebounceMs);
    this.reloadTimer.unref();
  }

  private async readRecords(): Promise<void> {
    let managed: ManagedKey[];
    try {
      managed = await this.records.read();
    } catch (error) {
      const message = (error as Error).message;
      if (this.failure !== message) {
        this.options.logger?.warn({ keys: this.location, error: message }, 'API keys cannot be read; the previous keys stay in force');
      }
      this.failure = message;
      this.emit('reloadFailed', error as Error);
      return;
    }
    if (this.failure !== undefined) this.options.logger?.info({ keys: this.location }, 'API keys readable again');
    this.failure = undefined;
    this.index(managed);
    this.emit('reload', this.keys.length);
  }

  private index(managed: readonly ManagedKey[]): void {
    this.keys = [...this.envKeys, ...managed.map((key) => ({ ...key, source: 'managed' as const }))];
    // The first key with a digest wins, as it did when keys were scanned in order.
    this.byDigest = new Map([...this.keys].reverse().map((key) => [key.hash, key]));
  }
}

/** Long enough to take a burst of writes as one change, short enough that a key takes effect well within a second. */
const reloadDebounceMs = 50;

/** Checks records read from storage, naming what is wrong. */
export function checkedKeys(value: unknown, location: string): ManagedKey[] {
  const { error, value: keys } = managedKeysSchema.validate(value, { stripUnknown: true });
  if (error) throw new Error(`${location}: ${error.message}`);
  return keys as ManagedKey[];
}

// The one-shot hash: every request's key is digested, and a Hash object per call costs several times the digest itself.
function digest(key: string): string {
  return hash('sha256', key, 'hex');
}
