import { createHash } from 'node:crypto';
import { capabilitiesOf } from '@predgate/core';
import type { AdapterContext, AdapterPlugin, Capability, Credentials, VenueAdapter, VenueDescription } from '@predgate/core';
import { LRUCache } from 'lru-cache';

export interface CredentialPoolOptions {
  max: number;
  idleMinutes: number;
}

/**
 * One enabled venue: its plugin, the shared adapter instance that serves
 * public data, and a bounded pool of authenticated instances, one per set of
 * credentials, so a trader's repeated calls reuse one signed-in client (and
 * whatever it derived, such as Polymarket's L2 keys) without any two callers
 * ever sharing one.
 */
export class Venue {
  readonly id: string;
  readonly packageName: string;
  readonly plugin: AdapterPlugin;
  readonly shared: VenueAdapter;
  /** What the venue's adapter implements, or core derives for it, by method name: fixed once it is made. */
  readonly capabilities: Readonly<Record<string, Capability>>;
  private readonly pool: LRUCache<string, VenueAdapter>;

  constructor(
    plugin: AdapterPlugin,
    packageName: string,
    private readonly contextFor: (credentials?: Credentials) => AdapterContext,
    poolOptions: CredentialPoolOptions,
  ) {
    this.id = plugin.id;
    this.packageName = packageName;
    this.plugin = plugin;
    const sharedContext = contextFor();
    this.shared = plugin.create(sharedContext);
    this.capabilities = capabilitiesOf(this.shared);
    this.pool = new LRUCache<string, VenueAdapter>({
      max: poolOptions.max,
      ttl: poolOptions.idleMinutes * 60_000,
      updateAgeOnGet: true,
      // An evicted client that fails to close must not become an unhandled rejection; its error may quote credentials, so only its name is logged.
      dispose: (adapter) =>
        void Promise.resolve(adapter.close?.()).catch((error: unknown) =>
          sharedContext.logger.warn({ venue: this.id, error: (error as Error | undefined)?.name }, 'closing a pooled adapter failed'),
        ),
    });
  }

  /** The adapter instance for a call: the shared one without credentials, the caller's own with them. */
  adapter(credentials?: Credentials): VenueAdapter {
    if (!credentials || Object.keys(credentials).length === 0) return this.shared;
    // The pool is keyed by a digest, so the map itself holds no secret.
    const key = createHash('sha256').update(canonicalJson(credentials)).digest('hex');
    let adapter = this.pool.get(key);
    if (!adapter) {
      adapter = this.plugin.create(this.contextFor(credentials));
      this.pool.set(key, adapter);
    }
    return adapter;
  }

  describe(): VenueDescription {
    return {
      id: this.id,
      package: this.packageName,
      version: this.plugin.version,
      ...this.shared.profile,
      has: { ...this.capabilities },
    };
  }

  async close(): Promise<void> {
    this.pool.clear();
    await this.shared.close?.();
  }
}

function canonicalJson(value: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(value)
      .sort()
      .map((key) => [key, value[key]]),
  );
}
