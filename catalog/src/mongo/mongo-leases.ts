import { MongoServerError } from 'mongodb';
import type { Collection, Db } from 'mongodb';
import type { LeaseState, SweepLeases } from '../ingestion/sweep-lease.js';

export const leasesCollectionName = 'sweepLeases';

interface LeaseDocument {
  /** The venue. */
  _id: string;
  holder: string;
  expiresAt: Date;
}

/**
 * Sweep leases in the `sweepLeases` collection of the catalog's database, one
 * document per venue. A claim is one conditional upsert: it matches the
 * venue's document only when the lease is the claimant's or has expired, so
 * when another replica holds a live lease the upsert's insert collides with
 * that document's `_id` and the claim fails. Expiry is compared with the
 * claimant's clock: replicas' clocks must agree to well within a lease.
 */
export class MongoSweepLeases implements SweepLeases {
  private readonly leases: Collection<LeaseDocument>;

  constructor(db: Db) {
    this.leases = db.collection<LeaseDocument>(leasesCollectionName);
  }

  async claim(venue: string, holder: string, ttlMs: number): Promise<LeaseState> {
    const now = Date.now();
    try {
      await this.leases.updateOne(
        { _id: venue, $or: [{ holder }, { expiresAt: { $lte: new Date(now) } }] },
        { $set: { holder, expiresAt: new Date(now + ttlMs) } },
        { upsert: true },
      );
      return { holder, expiresAt: now + ttlMs };
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
      const current = await this.leases.findOne({ _id: venue });
      // Released or expired between the two commands: the next claim takes it.
      return current ? { holder: current.holder, expiresAt: current.expiresAt.getTime() } : { holder: '', expiresAt: now };
    }
  }

  async release(venue: string, holder: string): Promise<void> {
    await this.leases.updateOne({ _id: venue, holder }, { $set: { expiresAt: new Date(0) } });
  }
}
