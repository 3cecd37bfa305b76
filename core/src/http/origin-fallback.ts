/**
 * Hosts that serve the same API as the one a request names, tried in order
 * when a host cannot be reached at all (its name does not resolve, or nothing
 * accepts the connection). A venue moving its API to a new host while the old
 * one lingers, or the reverse, then costs one failed connection, not an outage.
 */
export interface OriginFallbackOptions {
  /** Other origins serving the API, by the origin requests name (`https://external-api.kalshi.com` → [`https://api.elections.kalshi.com`]). */
  origins: Record<string, readonly string[]>;
  /** How long a working fallback is kept before the named origin is tried first again. */
  probeAfterMs?: number;
  now?: () => number;
}

const defaultProbeAfterMs = 5 * 60_000;

export class OriginFallback {
  private readonly chains: Map<string, string[]>;
  private readonly probeAfterMs: number;
  private readonly now: () => number;
  /** The fallback in use for a named origin, and since when. */
  private readonly inUse = new Map<string, { origin: string; since: number }>();

  constructor(options: OriginFallbackOptions) {
    this.chains = new Map(Object.entries(options.origins).map(([origin, others]) => [new URL(origin).origin, others.map((other) => new URL(other).origin)]));
    this.probeAfterMs = options.probeAfterMs ?? defaultProbeAfterMs;
    this.now = options.now ?? Date.now;
  }

  /** The URLs to try for a request, in order: the fallback in use first while it is fresh. */
  candidates(url: URL): URL[] {
    const others = this.chains.get(url.origin);
    if (!others) return [url];
    const current = this.inUse.get(url.origin);
    const fresh = current !== undefined && this.now() - current.since < this.probeAfterMs;
    const order = fresh ? [current.origin, url.origin, ...others.filter((origin) => origin !== current.origin)] : [url.origin, ...others];
    return order.map((origin) => new URL(`${url.pathname}${url.search}`, origin));
  }

  /** Records which origin answered a request naming `named`; true when that changes the origin in use. */
  answered(named: string, origin: string): boolean {
    if (!this.chains.has(named)) return false;
    const current = this.inUse.get(named);
    if (origin === named) {
      this.inUse.delete(named);
      return current !== undefined;
    }
    if (current?.origin === origin) {
      current.since = this.now();
      return false;
    }
    this.inUse.set(named, { origin, since: this.now() });
    return true;
  }

  /** The fallbacks in use, by named origin, for status pages. */
  active(): Record<string, string> {
    return Object.fromEntries([...this.inUse].map(([named, { origin }]) => [named, origin]));
  }
}
