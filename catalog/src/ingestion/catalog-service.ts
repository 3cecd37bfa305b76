import { isPredgateError, silentLogger, systemClock, withDriftSink } from '@predgate/core';
import type { Clock, Logger, PredgateError, VenueAdapter } from '@predgate/core';
import PQueue from 'p-queue';
import { declareCategoryWords } from '../categories.js';
import type { CatalogStore, SweepRecord } from '../store.js';
import { defaultShrinkGuard, shrinkReason } from './shrink-guard.js';
import type { ShrinkGuard } from './shrink-guard.js';
import { sweepVenue } from './sweep.js';
import type { LeaseState, SweepLeases } from './sweep-lease.js';
import type { SweepResult } from './sweep.js';

export interface CatalogServiceOptions {
  store: CatalogStore;
  /** The shared (credential-free) adapter of every enabled venue, with its own sweep settings where it has any. */
  venues: ReadonlyArray<VenueToIngest>;
  clock?: Clock;
  logger?: Logger;
  /** Time between complete sweeps of a venue, jittered by ±10%. */
  intervalMs?: number;
  /** Sweeps running at once across all venues. */
  concurrency?: number;
  /** First retry delay after a failure; doubles per failure up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  pageSize?: number;
  maxPages?: number;
  /** A venue's catalog answers pass-through calls while its last sweep is younger than this. */
  freshForMs?: number;
  /** Sees every failed sweep's error (the gateway counts venue drift from them). */
  onSweepError?: (venue: string, error: unknown) => void;
  /** Told of every committed sweep (the gateway's webhooks diff it against the one before). */
  onSweepCommitted?: (venue: string, sweep: SweepRecord) => void;
  /** Each item a sweep left out as unreadable or outside the model (a drift report); the rest of the sweep goes on. */
  onDrift?: (venue: string, report: PredgateError) => void;
  /** Gateways sharing the catalog: each venue is swept by the one replica holding its lease, and every replica follows the sweeps in the store. */
  replicas?: Replicas;
  /**
   * Logs a venue's failed first sweep at debug, not warn: the caller reports
   * the first round whole from `firstRound()` (the CLI prints one summary
   * line instead of a warning per unreachable venue).
   */
  quietFirstRound?: boolean;
}

export interface Replicas {
  leases: SweepLeases;
  /** This replica's id, unique among those sharing the catalog. */
  holder: string;
  /** How long a lease lasts unrenewed (a dead sweeper's venues wait this long); renewed every third of it. 30 s by default. */
  leaseMs?: number;
  /** How often the store's sweeps are read, so that venues swept elsewhere are served fresh. 1 s by default. */
  followMs?: number;
}

export interface VenueToIngest {
  id: string;
  adapter: VenueAdapter;
  /** Events per venue call; the service's `pageSize` otherwise. */
  pageSize?: number;
  /** `all` (the default) keeps closed events too; `active` suits venues whose history is very long. */
  status?: 'all' | 'active';
  /** How far one sweep may shrink the venue's catalog unconfirmed; `false` commits every sweep. Half, by default. */
  shrinkGuard?: ShrinkGuard | false;
}

/** A sweep held back because it shrank the catalog too much; the next sweep that shrinks it likewise confirms it. */
export interface HeldSweep {
  sweep: SweepRecord;
  reason: string;
  at: number;
}

export interface VenueIngestion {
  venue: string;
  lastSweep: SweepRecord | null;
  lastError: { message: string; code: string; at: number } | null;
  nextAttemptAt: number | null;
  running: boolean;
  consecutiveFailures: number;
  /** The last sweep held back, while no later sweep has been committed. */
  heldSweep: HeldSweep | null;
  /** With replicas: who holds the venue's sweep lease, and whether that is this replica. */
  sweeper: (LeaseState & { here: boolean }) | null;
}

type VenueState = Omit<VenueIngestion, 'sweeper'> & { source: VenueToIngest; timer?: NodeJS.Timeout; lease: LeaseState | null };

/**
 * Keeps every venue's catalog current: a sweep per venue on a jittered
 * schedule, no more than `concurrency` at once, failures retried with bounded
 * exponential backoff and logged when they start, change or end rather than
 * every time.
 */
export class CatalogService {
  readonly store: CatalogStore;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly settings: Required<
    Omit<CatalogServiceOptions, 'store' | 'venues' | 'clock' | 'logger' | 'onSweepError' | 'onSweepCommitted' | 'onDrift' | 'replicas' | 'quietFirstRound'>
  >;
  private readonly quietFirstRound: boolean;
  /** Venues that have made one sweep attempt since `start()`, and who waits for all of them. */
  private readonly attempted = new Set<string>();
  /** Each answers whether the first round is over, resolving its waiter when it is. */
  private firstRoundWaiters: Array<() => boolean> = [];
  private readonly onSweepError: (venue: string, error: unknown) => void;
  private readonly onSweepCommitted: (venue: string, sweep: SweepRecord) => void;
  private readonly onDrift: (venue: string, report: PredgateError) => void;
  private readonly queue: PQueue;
  private readonly state = new Map<string, VenueState>();
  private readonly replicas: Required<Replicas> | undefined;
  private replicaTimers: NodeJS.Timeout[] = [];
  private claiming = false;
  private started = false;
  private commits = 0;

  constructor(options: CatalogServiceOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.settings = {
      intervalMs: options.intervalMs ?? 60_000,
      concurrency: options.concurrency ?? 2,
      backoffMs: options.backoffMs ?? 5_000,
      maxBackoffMs: options.maxBackoffMs ?? 15 * 60_000,
      pageSize: options.pageSize ?? 200,
      maxPages: options.maxPages ?? 10_000,
      freshForMs: options.freshForMs ?? 120_000,
    };
    this.onSweepError = options.onSweepError ?? (() => {});
    this.onSweepCommitted = options.onSweepCommitted ?? (() => {});
    this.onDrift = options.onDrift ?? (() => {});
    this.replicas = options.replicas && { leaseMs: 30_000, followMs: 1_000, ...options.replicas };
    this.quietFirstRound = options.quietFirstRound ?? false;
    this.queue = new PQueue({ concurrency: this.settings.concurrency });
    for (const source of options.venues) {
      // The venue's own category words file its events: the catalog keeps no list of them.
      declareCategoryWords(source.id, source.adapter.profile.categoryWords);
      this.state.set(source.id, {
        venue: source.id,
        source,
        lastSweep: null,
        lastError: null,
        nextAttemptAt: null,
        running: false,
        consecutiveFailures: 0,
        heldSweep: null,
        lease: null,
      });
    }
  }

  /** Reads the last sweeps the store kept; call after the store is open. */
  async load(): Promise<void> {
    for (const sweep of await this.store.sweeps()) {
      const venue = this.state.get(sweep.venue);
      if (venue) venue.lastSweep = sweep;
    }
  }

  /**
   * Schedules every venue: at once when it has no sweep yet, else one interval after its last sweep.
   * With replicas, only the venues whose lease this replica holds; leases are claimed and renewed from now on.
   */
  start(): void {
    this.started = true;
    if (this.replicas) {
      const { leaseMs, followMs } = this.replicas;
      void this.claimLeases();
      this.replicaTimers = [setInterval(() => void this.claimLeases(), leaseMs / 3), setInterval(() => void this.follow(), followMs)];
      for (const timer of this.replicaTimers) timer.unref();
      return;
    }
    for (const venue of this.state.values()) this.scheduleDue(venue);
  }

  /**
   * Resolves, with every venue's status, once each venue has a sweep (kept
   * from before, made now, or, with replicas, made by another) or has failed
   * its first attempt since `start()`.
   */
  firstRound(): Promise<VenueIngestion[]> {
    return new Promise((resolve) => {
      const check = () => {
        const done = [...this.state.values()].every((venue) => venue.lastSweep !== null || this.attempted.has(venue.venue));
        if (done) resolve(this.status());
        return done;
      };
      if (!check()) this.firstRoundWaiters.push(check);
    });
  }

  /** Cancels what is scheduled, waits for sweeps under way, and gives up the leases this replica holds. */
  async stop(): Promise<void> {
    this.started = false;
    for (const timer of this.replicaTimers) clearInterval(timer);
    for (const venue of this.state.values()) clearTimeout(venue.timer);
    this.queue.clear();
    await this.queue.onIdle();
    if (!this.replicas) return;
    const { leases, holder } = this.replicas;
    const held = [...this.state.values()].filter((venue) => this.sweepsHere(venue));
    await Promise.all(held.map((venue) => leases.release(venue.venue, holder).catch(() => {})));
  }

  /** Sweeps one venue now (queued behind sweeps under way); a sweep held back says why in `held`. */
  async sweep(venue: string): Promise<SweepResult> {
    const state = this.state.get(venue);
    if (!state) throw new Error(`no venue ${venue} in the catalog`);
    return this.queue.add(() => this.run(state));
  }

  status(): VenueIngestion[] {
    return [...this.state.values()].map(({ source: _source, timer: _timer, lease, ...status }) => ({
      ...status,
      sweeper: lease && { ...lease, here: lease.holder === this.replicas?.holder },
    }));
  }

  /** Changes whenever a sweep commits: answers derived from the catalog can be cached under it. */
  get generation(): number {
    return this.commits;
  }

  /**
   * When the catalog's data of a venue was read: the end of its last complete
   * sweep. Without a venue, the oldest of every venue's, so an answer drawn
   * from several venues is at least that recent. Undefined before any sweep.
   */
  sweptAt(venue?: string): number | undefined {
    if (venue !== undefined) return this.state.get(venue)?.lastSweep?.finishedAt;
    const times = [...this.state.values()].flatMap((state) => (state.lastSweep ? [state.lastSweep.finishedAt] : []));
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Whether the venue's catalog is recent enough to answer pass-through calls. */
  isFresh(venue: string): boolean {
    const sweep = this.state.get(venue)?.lastSweep;
    return sweep !== null && sweep !== undefined && this.clock.now() - sweep.finishedAt <= this.settings.freshForMs;
  }

  private async run(state: VenueState): Promise<SweepResult> {
    state.running = true;
    state.nextAttemptAt = null;
    const guard = state.source.shrinkGuard ?? defaultShrinkGuard;
    try {
      const record = await withDriftSink(
        (report) => this.onDrift(state.venue, report),
        () =>
          sweepVenue({
            venue: state.venue,
            adapter: state.source.adapter,
            store: this.store,
            clock: this.clock,
            pageSize: state.source.pageSize ?? this.settings.pageSize,
            maxPages: this.settings.maxPages,
            status: state.source.status ?? 'all',
            ...(this.replicas ? { sweptBy: this.replicas.holder } : {}),
            // A second sweep in a row that shrinks the catalog as much confirms the first: the venue did shrink.
            hold: (sweep) => (guard === false || state.heldSweep ? undefined : shrinkReason(state.lastSweep, sweep, guard)),
          }),
      );
      if (record.held !== undefined) {
        state.heldSweep = { sweep: record, reason: record.held, at: this.clock.now() };
        this.logger.warn(
          { venue: state.venue, events: record.events, openMarkets: record.openMarkets },
          `catalog sweep held back until the next sweep confirms it: ${record.held}`,
        );
        this.schedule(state.venue, this.jittered(this.settings.intervalMs));
        return record;
      }
      if (state.heldSweep && shrinkReason(state.lastSweep, record, guard || defaultShrinkGuard) === undefined) {
        this.logger.info({ venue: state.venue }, 'catalog sweep back to its usual size; the held sweep is dropped');
      }
      state.heldSweep = null;
      if (state.consecutiveFailures > 0) {
        this.logger.info({ venue: state.venue, failures: state.consecutiveFailures }, 'catalog sweeps recovered');
      }
      state.lastSweep = record;
      state.consecutiveFailures = 0;
      this.commits += 1;
      this.onSweepCommitted(state.venue, record);
      this.schedule(state.venue, this.jittered(this.settings.intervalMs));
      return record;
    } catch (error) {
      this.onSweepError(state.venue, error);
      const lastError = {
        message: error instanceof Error ? error.message : String(error),
        code: isPredgateError(error) ? error.code : 'INTERNAL_ERROR',
        at: this.clock.now(),
      };
      const changed = state.lastError?.message !== lastError.message;
      state.lastError = lastError;
      state.consecutiveFailures += 1;
      const delay = Math.min(this.settings.maxBackoffMs, this.settings.backoffMs * 2 ** (state.consecutiveFailures - 1));
      // The first failure and each new kind of failure are worth a warning; repeats are not,
      // nor a first sweep's failure when the caller reports the first round itself.
      const quiet = this.quietFirstRound && !this.attempted.has(state.venue);
      const log = !quiet && (state.consecutiveFailures === 1 || changed) ? this.logger.warn : this.logger.debug;
      log.call(
        this.logger,
        { venue: state.venue, code: lastError.code, failures: state.consecutiveFailures, retryInMs: delay },
        `catalog sweep failed: ${lastError.message}`,
      );
      this.schedule(state.venue, delay);
      throw error;
    } finally {
      state.running = false;
      this.attempted.add(state.venue);
      this.settleFirstRound();
    }
  }

  private schedule(venue: string, delayMs: number): void {
    const state = this.state.get(venue)!;
    clearTimeout(state.timer);
    if (!this.started || (this.replicas && !this.sweepsHere(state))) return;
    state.nextAttemptAt = this.clock.now() + delayMs;
    state.timer = setTimeout(() => {
      // A lease lost since the sweep was scheduled leaves the venue to its new holder.
      if (this.replicas && !this.sweepsHere(state)) return;
      void this.queue.add(() => this.run(state)).catch(() => {});
    }, delayMs);
    state.timer.unref();
  }

  /** At once when the venue has no sweep yet, else one interval after its last sweep. */
  private scheduleDue(state: VenueState): void {
    const due = state.lastSweep ? state.lastSweep.finishedAt + this.jittered(this.settings.intervalMs) : this.clock.now();
    this.schedule(state.venue, Math.max(0, due - this.clock.now()));
  }

  private sweepsHere(state: VenueState): boolean {
    return state.lease !== null && state.lease.holder === this.replicas?.holder && state.lease.expiresAt > Date.now();
  }

  /** Claims (or renews) every venue's lease: a venue newly held is scheduled, one lost is left alone. */
  private async claimLeases(): Promise<void> {
    if (this.claiming || !this.replicas) return;
    this.claiming = true;
    const { leases, holder, leaseMs } = this.replicas;
    try {
      for (const state of this.state.values()) {
        const wasHere = this.sweepsHere(state);
        try {
          state.lease = await leases.claim(state.venue, holder, leaseMs);
        } catch (error) {
          // The database is out of reach: sweeps could not be written either; the lease runs out on its own.
          this.logger.debug({ venue: state.venue, error: (error as Error).message }, 'sweep lease could not be claimed');
          continue;
        }
        if (!this.started) return;
        const isHere = this.sweepsHere(state);
        if (isHere && !wasHere) {
          this.logger.info({ venue: state.venue, holder }, 'this replica sweeps the venue (lease taken)');
          this.scheduleDue(state);
        } else if (!isHere && wasHere) {
          this.logger.warn({ venue: state.venue, holder: state.lease.holder }, 'sweep lease lost to another replica');
          clearTimeout(state.timer);
          state.nextAttemptAt = null;
        }
      }
    } finally {
      this.claiming = false;
    }
  }

  /** Takes up sweeps other replicas committed, so this one serves (and judges freshness by) the catalog as it is. */
  private async follow(): Promise<void> {
    let records: SweepRecord[];
    try {
      records = await this.store.sweeps();
    } catch {
      return;
    }
    for (const record of records) {
      const state = this.state.get(record.venue);
      if (!state || state.lastSweep?.sweepId === record.sweepId || (state.lastSweep && record.finishedAt < state.lastSweep.finishedAt)) continue;
      state.lastSweep = record;
      this.commits += 1;
    }
    this.settleFirstRound();
  }

  private settleFirstRound(): void {
    this.firstRoundWaiters = this.firstRoundWaiters.filter((check) => !check());
  }

  private jittered(ms: number): number {
    return Math.round(ms * (0.9 + Math.random() * 0.2));
  }
}
