/** Who sweeps a venue now, as a lease says. */
export interface LeaseState {
  /** The id of the replica holding the lease. */
  holder: string;
  expiresAt: number;
}

/**
 * Leases that elect one sweeper per venue among gateways sharing a catalog:
 * a replica sweeps a venue only while it holds the venue's lease, renews it
 * while it lives, and another takes it over once it has expired.
 */
export interface SweepLeases {
  /** Takes the venue's lease for `holder` if it is free, expired or already `holder`'s (then it is renewed); says who holds it afterwards. */
  claim(venue: string, holder: string, ttlMs: number): Promise<LeaseState>;
  /** Gives the lease up, if `holder` holds it, so another replica need not wait for it to expire. */
  release(venue: string, holder: string): Promise<void>;
}
