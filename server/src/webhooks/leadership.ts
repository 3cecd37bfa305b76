import type { SweepLeases } from '@predgate/catalog';

/**
 * Which replica sends webhook deliveries. Every replica records subscriptions
 * and notifications in the shared journal; only the leader attempts them, so
 * a notification is sent by one replica, and by another once the first is gone.
 */
export interface Leadership {
  readonly leading: boolean;
  /**
   * Starts keeping (or seeking) the lead; `leading` says the outcome once this
   * resolves, and `changed` is told each time it changes after that.
   */
  start(changed: (leading: boolean) => void): Promise<void>;
  close(): Promise<void>;
}

/** A gateway alone on its data: always the leader. */
export const soleLeader: Leadership = {
  leading: true,
  start: async () => {},
  close: async () => {},
};

/** The lease's name among the catalog's leases, which are otherwise per venue (venue ids never start with `@`). */
const leaseName = '@webhooks';

/**
 * The lead held as a lease in the catalog's MongoDB, renewed three times a lease.
 * `leading` holds only until the lease's end as this replica last claimed it:
 * when a renewal is held up (a stalled event loop, a slow database), this
 * replica stops sending before another may take the lease and start.
 */
export class LeaseLeadership implements Leadership {
  private heldUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;

  constructor(
    private readonly leases: SweepLeases,
    private readonly holder: string,
    private readonly leaseMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  get leading(): boolean {
    return Date.now() < this.heldUntil;
  }

  async start(changed: (leading: boolean) => void): Promise<void> {
    const claim = async (tell: (leading: boolean) => void) => {
      let heldUntil = 0;
      try {
        const lease = await this.leases.claim(leaseName, this.holder, this.leaseMs);
        if (lease.holder === this.holder) heldUntil = lease.expiresAt;
      } catch (error) {
        // Unable to renew, the lease may lapse and another replica take over: stop sending now rather than both send.
        this.onError(error);
      }
      // Read once the claim is answered: a lease that lapsed while it was under way and is renewed now is a new lead.
      const wasLeading = this.leading;
      this.heldUntil = heldUntil;
      if (this.leading !== wasLeading) tell(this.leading);
    };
    // The first claim's outcome is read from `leading` by the caller, which acts on it once.
    await claim(() => {});
    this.timer = setInterval(() => {
      this.claiming ??= claim(changed).finally(() => (this.claiming = undefined));
    }, this.leaseMs / 3);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.claiming;
    if (this.heldUntil > 0) await this.leases.release(leaseName, this.holder).catch(this.onError);
    this.heldUntil = 0;
  }
}
