import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SweepLeases } from '@predgate/catalog';
import { PredgateError, writeFileDurablySync } from '@predgate/core';
import type { Clock, Logger } from '@predgate/core';
import type { Db } from 'mongodb';
import PQueue from 'p-queue';
import { Webhook } from 'standardwebhooks';
import { Journal } from './journal.js';
import { LeaseLeadership, soleLeader } from './leadership.js';
import type { Leadership } from './leadership.js';
import { MongoJournal } from './mongo-journal.js';
import type { RecordLog } from './record-log.js';
import type { Attempt, Delivery, DeliveryState, EventSpec, Notification, NotificationKind, Subscription } from './model.js';
import { WebhookSender } from './sender.js';
import { UrlGuard } from './url-guard.js';
import type { UrlGuardOptions } from './url-guard.js';

export interface WebhookSettings extends UrlGuardOptions {
  /** Subscriptions one API key may hold. */
  maxPerKey: number;
  /** Longest one delivery attempt may take. */
  timeoutMs: number;
  /** Attempts under way at once, across receivers. */
  concurrency: number;
  /** Delay before the first retry; it doubles per attempt up to `maxRetryMs`, each delay jittered down by up to half. */
  firstRetryMs: number;
  maxRetryMs: number;
  /** A notification not delivered this long after it was made is given up (`failed`). */
  retryForHours: number;
}

export interface WebhookServiceOptions {
  /** The journal and the signing key live here, unless the state is `shared`. */
  dir: string;
  settings: WebhookSettings;
  /** The key subscription secrets are derived from; otherwise a random key kept in `dir/signing-key` (mode 0600), or in the shared database. */
  signingKey?: string;
  /**
   * Replicas sharing a MongoDB catalog share their webhooks too: the journal
   * lives in that database, and the replica holding the webhooks lease sends.
   */
  shared?: SharedWebhooks;
  clock: Clock;
  logger: Logger;
  /** Jitter source; tests pass a fixed one. */
  random?: () => number;
  /** Told of every delivery outcome, for metrics. */
  onOutcome?: (state: DeliveryState, attempt: Attempt) => void;
}

export interface SharedWebhooks {
  db: Db;
  /** This replica, as the leases and the journal name it. */
  holder: string;
  leases: SweepLeases;
  leaseMs: number;
}

type JournalRecord =
  | { op: 'subscribe'; subscription: Subscription }
  | { op: 'unsubscribe'; id: string; at: number; reason: string }
  | { op: 'enqueue'; delivery: Delivery }
  | { op: 'attempt'; id: string; number: number; attempt: Attempt; state: DeliveryState; nextAt: number };

/** Finished deliveries kept per subscription (for `/deliveries` and to recognise a notification made again). */
const historyPerSubscription = 200;
/** Deliveries one subscription may have waiting; a notification past it is dropped and logged. */
const maxPendingPerSubscription = 10_000;
/** The journal is rewritten to its live state after this many appended records. */
const rewriteAfterRecords = 200_000;

/**
 * Webhook subscriptions per API key and their deliveries. A notification is
 * written to the journal before it is first attempted, attempts are
 * journaled with their outcome, and pending deliveries are picked up again
 * after a restart or `kill -9`: at-least-once, and since the `webhook-id` of
 * a notification never changes, a receiver that remembers ids acts on each
 * exactly once. Retries back off exponentially with jitter for
 * `retryForHours`; a 410 from the receiver ends the subscription.
 */
export class WebhookService {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly deliveries = new Map<string, Delivery>();
  /** Delivery ids per subscription, oldest first. */
  private readonly bySubscription = new Map<string, string[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly queue: PQueue;
  private readonly sender: WebhookSender;
  private readonly listeners = new Set<() => void>();
  private readonly random: () => number;
  private closed = false;
  /** Attempt outcomes being journaled. */
  private readonly settling = new Set<Promise<void>>();
  /** Deliveries with an attempt sent and not yet journaled. */
  private readonly attempting = new Set<string>();
  private compacting = false;

  private constructor(
    private readonly options: WebhookServiceOptions,
    private readonly journal: RecordLog<JournalRecord>,
    private readonly signingKey: Buffer,
    readonly guard: UrlGuard,
    private readonly leadership: Leadership,
  ) {
    this.queue = new PQueue({ concurrency: options.settings.concurrency });
    this.sender = new WebhookSender({ guard, timeoutMs: options.settings.timeoutMs, connections: options.settings.concurrency });
    this.random = options.random ?? Math.random;
  }

  static async open(options: WebhookServiceOptions): Promise<WebhookService> {
    const { journal, records, signingKey, leadership } = options.shared ? await openShared(options, options.shared) : await openLocal(options);
    const service = new WebhookService(options, journal, signingKey, new UrlGuard(options.settings), leadership);
    for (const record of records) service.apply(record);
    journal.follow?.({
      records: (followed) => followed.forEach((record) => service.applyFollowed(record)),
      reset: (all) => service.rebuild(all),
    });
    await leadership.start((leading) => (leading ? service.takeLead() : service.stopSending()));
    // Once, whatever the start decided: `schedule` sends only while this replica leads.
    service.takeLead();
    return service;
  }

  /** Subscribes a receiver; the secret it verifies signatures with is returned here and never again. */
  async subscribe(keyId: string, input: { url: string; events: EventSpec[]; description?: string }): Promise<{ subscription: Subscription; secret: string }> {
    const url = (await this.guard.checkReceiver(input.url)).toString();
    const held = [...this.subscriptions.values()].filter((subscription) => subscription.keyId === keyId).length;
    if (held >= this.options.settings.maxPerKey) {
      throw new PredgateError('VALIDATION_ERROR', `This API key already has ${held} webhook subscriptions, the most it may hold`, {
        detail: { limit: this.options.settings.maxPerKey },
      });
    }
    const subscription: Subscription = {
      id: `wh_${randomBytes(12).toString('hex')}`,
      keyId,
      url,
      events: input.events,
      ...(input.description ? { description: input.description } : {}),
      createdAt: this.options.clock.now(),
    };
    await this.record({ op: 'subscribe', subscription });
    return { subscription, secret: this.secretOf(subscription.id) };
  }

  list(keyId: string): Subscription[] {
    return [...this.subscriptions.values()].filter((subscription) => subscription.keyId === keyId);
  }

  /** One of the key's subscriptions; another key's is as unknown as a missing one. */
  get(keyId: string, id: string): Subscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription || subscription.keyId !== keyId) throw new PredgateError('NOT_FOUND', `No webhook subscription ${id}`, { detail: { id } });
    return subscription;
  }

  async unsubscribe(keyId: string, id: string): Promise<void> {
    this.get(keyId, id);
    await this.record({ op: 'unsubscribe', id, at: this.options.clock.now(), reason: 'deleted' });
  }

  /** The subscription's deliveries, newest first, with every attempt. */
  deliveriesOf(keyId: string, id: string, page: { limit: number; offset: number }): { items: Delivery[]; total: number } {
    this.get(keyId, id);
    const ids = this.bySubscription.get(id) ?? [];
    const newestFirst = ids.slice().reverse();
    return { items: newestFirst.slice(page.offset, page.offset + page.limit).map((delivery) => this.deliveries.get(delivery)!), total: ids.length };
  }

  /** Sends a signed `webhook.ping` to the subscription's receiver. */
  ping(keyId: string, id: string): Promise<Delivery | undefined> {
    const subscription = this.get(keyId, id);
    const at = this.options.clock.now();
    return this.notify(subscription, { kind: 'webhook.ping', key: `${at}:${randomBytes(6).toString('hex')}`, data: { subscriptionId: id } });
  }

  /** Live subscriptions asking for a kind, for the sources that find changes. */
  subscribedTo(kind: NotificationKind): Array<{ subscription: Subscription; spec: EventSpec }> {
    const found: Array<{ subscription: Subscription; spec: EventSpec }> = [];
    for (const subscription of this.subscriptions.values()) {
      for (const spec of subscription.events) if (spec.kind === kind) found.push({ subscription, spec });
    }
    return found;
  }

  /** Called whenever subscriptions come or go (the book source opens and closes its watches). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Addresses a notification to one subscription: journaled, then attempted.
   * A notification already made for it (same kind and key) is not made again.
   */
  async notify(subscription: Subscription, notification: Notification): Promise<Delivery | undefined> {
    if (this.closed || !this.subscriptions.has(subscription.id)) return undefined;
    const id = `msg_${createHash('sha256').update(`${subscription.id}\n${notification.kind}\n${notification.key}`).digest('base64url').slice(0, 32)}`;
    if (this.deliveries.has(id)) return undefined;
    const ids = this.bySubscription.get(subscription.id) ?? [];
    // Counted only when the subscription has that many deliveries at all, so a busy one costs no scan per notification.
    if (ids.length >= maxPendingPerSubscription && ids.filter((known) => this.deliveries.get(known)?.state === 'pending').length >= maxPendingPerSubscription) {
      this.options.logger.warn({ subscription: subscription.id, kind: notification.kind }, 'webhook notification dropped: too many deliveries waiting');
      return undefined;
    }
    const now = this.options.clock.now();
    const body = JSON.stringify({ type: notification.kind, timestamp: new Date(now).toISOString(), data: notification.data });
    const delivery: Delivery = {
      id,
      subscriptionId: subscription.id,
      kind: notification.kind,
      body,
      createdAt: now,
      state: 'pending',
      attempts: [],
      nextAt: now,
    };
    await this.record({ op: 'enqueue', delivery });
    const kept = this.deliveries.get(id)!;
    this.schedule(kept);
    return kept;
  }

  /** The secret a subscription's receiver verifies with: derived from the gateway's signing key, so none is stored. */
  secretOf(subscriptionId: string): string {
    return `whsec_${createHmac('sha256', this.signingKey).update(subscriptionId).digest('base64')}`;
  }

  /** Waits for attempts under way, then stops; pending deliveries stay in the journal for the next start. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopSending();
    await this.queue.onIdle();
    await Promise.all(this.settling);
    await this.leadership.close();
    await this.journal.close();
    await this.sender.close();
  }

  /** Attempts every pending delivery when due: at start, and when this replica becomes the one that sends. */
  private scheduleAll(notBefore = 0): void {
    for (const delivery of this.deliveries.values()) if (delivery.state === 'pending') this.schedule(delivery, notBefore);
  }

  /**
   * Schedules what is pending as this replica takes the lead. The one before it
   * may still be finishing an attempt it started just before its lease ended,
   * its outcome not yet in the journal: deliveries pending then wait for that
   * attempt's longest time (and one lease for its record to arrive) so they are
   * not sent twice. A gateway alone on its data has no one before it.
   */
  private takeLead(): void {
    const { shared, settings, clock } = this.options;
    this.scheduleAll(shared ? clock.now() + settings.timeoutMs + shared.leaseMs : 0);
  }

  /** Stops attempting (closing, or another replica has the lead); pending deliveries stay pending for whoever sends. */
  private stopSending(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.queue.clear();
  }

  /** A record another replica journaled: applied, and attempted here when it is a new notification and this replica sends. */
  private applyFollowed(record: JournalRecord): void {
    const fresh = record.op === 'enqueue' && !this.deliveries.has(record.delivery.id);
    this.apply(record);
    if (fresh && this.deliveries.get(record.delivery.id)?.state === 'pending') this.schedule(this.deliveries.get(record.delivery.id)!);
  }

  /** The shared journal was rewritten past what this replica had read: the state is replayed from it whole. */
  private rebuild(records: JournalRecord[]): void {
    this.stopSending();
    this.subscriptions.clear();
    this.deliveries.clear();
    this.bySubscription.clear();
    for (const record of records) this.apply(record);
    for (const listener of this.listeners) listener();
    this.scheduleAll();
  }

  private schedule(delivery: Delivery, notBefore = 0): void {
    if (this.closed || !this.leadership.leading) return;
    const delay = Math.max(0, Math.max(delivery.nextAt, notBefore) - this.options.clock.now());
    const enqueue = () => void this.queue.add(() => this.attempt(delivery.id));
    if (delay === 0) return enqueue();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      enqueue();
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** Sends one attempt; its outcome is journaled after the send slot is free again, so a disk sync never holds a slot. */
  private async attempt(id: string): Promise<void> {
    const delivery = this.deliveries.get(id);
    // One attempt at a time per delivery: a lead regained while an attempt is under way schedules it again.
    if (this.closed || !this.leadership.leading || delivery?.state !== 'pending' || this.attempting.has(id)) return;
    const subscription = this.subscriptions.get(delivery.subscriptionId);
    if (!subscription) return;
    this.attempting.add(id);
    const sentAt = new Date();
    const headers = {
      'webhook-id': delivery.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(this.secretOf(subscription.id)).sign(delivery.id, sentAt, delivery.body),
    };
    const attempt = await this.sender.send(subscription.url, headers, delivery.body, () => this.options.clock.now());
    if (this.closed) return;
    const settling = this.settle(delivery, subscription, attempt).catch((error: unknown) => {
      this.attempting.delete(id);
      // Not journaled: the delivery stays pending in the journal and is sent again after a restart, with its id.
      this.options.logger.error({ err: error, delivery: delivery.id }, 'a webhook attempt could not be journaled');
    });
    this.settling.add(settling);
    void settling.finally(() => this.settling.delete(settling));
  }

  private async settle(delivery: Delivery, subscription: Subscription, attempt: Attempt): Promise<void> {
    const { state, nextAt } = this.nextStep(delivery, attempt);
    this.options.onOutcome?.(state, attempt);
    await this.record({ op: 'attempt', id: delivery.id, number: delivery.attempts.length + 1, attempt, state, nextAt });
    if (attempt.status === 410) {
      await this.record({ op: 'unsubscribe', id: subscription.id, at: attempt.at, reason: 'the receiver answered 410 Gone' });
    }
    // The attempt is journaled: the next one may start.
    this.attempting.delete(delivery.id);
    if (state === 'pending') this.schedule(delivery);
    if (this.journal.appended > rewriteAfterRecords && !this.compacting && this.leadership.leading) {
      this.compacting = true;
      await this.compact().finally(() => (this.compacting = false));
    }
  }

  private nextStep(delivery: Delivery, attempt: Attempt): { state: DeliveryState; nextAt: number } {
    const { status } = attempt;
    if (status !== undefined && status >= 200 && status < 300) return { state: 'delivered', nextAt: 0 };
    if (status === 410) return { state: 'unsubscribed', nextAt: 0 };
    const { firstRetryMs, maxRetryMs, retryForHours } = this.options.settings;
    const tries = delivery.attempts.length + 1;
    const delay = Math.round(Math.min(maxRetryMs, firstRetryMs * 2 ** (tries - 1)) * (0.5 + this.random() * 0.5));
    const nextAt = this.options.clock.now() + delay;
    return nextAt - delivery.createdAt > retryForHours * 3_600_000 ? { state: 'failed', nextAt: 0 } : { state: 'pending', nextAt };
  }

  /** Journals a change, then applies it; a change counts once it is on disk. */
  private async record(record: JournalRecord): Promise<void> {
    await this.journal.append(record);
    this.apply(record);
  }

  private apply(record: JournalRecord): void {
    const known = record.op === 'enqueue' && this.deliveries.has(record.delivery.id);
    replay(record, this.subscriptions, this.deliveries);
    if (record.op === 'enqueue' && !known) {
      const ids = this.bySubscription.get(record.delivery.subscriptionId) ?? [];
      ids.push(record.delivery.id);
      this.bySubscription.set(record.delivery.subscriptionId, ids);
    } else if (record.op === 'unsubscribe') {
      for (const id of this.bySubscription.get(record.id) ?? []) this.deliveries.delete(id);
      this.bySubscription.delete(record.id);
    }
    if (record.op === 'subscribe' || record.op === 'unsubscribe') for (const listener of this.listeners) listener();
  }

  private async compact(): Promise<void> {
    // Finished deliveries past the history kept are forgotten before the journal is rewritten without them.
    for (const [subscription, ids] of this.bySubscription) {
      const finished = ids.filter((id) => this.deliveries.get(id)?.state !== 'pending');
      const forget = new Set(finished.slice(0, Math.max(0, finished.length - historyPerSubscription)));
      for (const id of forget) this.deliveries.delete(id);
      this.bySubscription.set(
        subscription,
        ids.filter((id) => !forget.has(id)),
      );
    }
    await this.journal.rewrite(() => liveRecords(this.subscriptions, this.deliveries));
  }
}

/** Applies one journal record to subscriptions and deliveries; applying a record twice changes nothing more. */
function replay(record: JournalRecord, subscriptions: Map<string, Subscription>, deliveries: Map<string, Delivery>): void {
  switch (record.op) {
    case 'subscribe':
      subscriptions.set(record.subscription.id, record.subscription);
      return;
    case 'unsubscribe':
      subscriptions.delete(record.id);
      for (const delivery of deliveries.values()) {
        if (delivery.subscriptionId !== record.id) continue;
        if (delivery.state === 'pending') delivery.state = 'unsubscribed';
      }
      return;
    case 'enqueue':
      if (!deliveries.has(record.delivery.id)) deliveries.set(record.delivery.id, structuredClone(record.delivery));
      return;
    case 'attempt': {
      const delivery = deliveries.get(record.id);
      // Numbered, so an attempt the compacted journal already holds is not counted again.
      if (!delivery || delivery.attempts.length !== record.number - 1) return;
      delivery.attempts.push(record.attempt);
      delivery.state = record.state;
      delivery.nextAt = record.nextAt;
      return;
    }
  }
}

/** The journal's compact form: every live subscription, and the deliveries kept for them with their attempts. */
function liveRecords(subscriptions: Map<string, Subscription>, deliveries: Map<string, Delivery>): JournalRecord[] {
  const bySubscription = new Map<string, Delivery[]>();
  for (const delivery of deliveries.values()) {
    if (!subscriptions.has(delivery.subscriptionId)) continue;
    bySubscription.set(delivery.subscriptionId, [...(bySubscription.get(delivery.subscriptionId) ?? []), delivery]);
  }
  const kept: Delivery[] = [];
  for (const list of bySubscription.values()) {
    const finished = list.filter((delivery) => delivery.state !== 'pending');
    const forgotten = new Set(finished.slice(0, Math.max(0, finished.length - historyPerSubscription)));
    kept.push(...list.filter((delivery) => !forgotten.has(delivery)));
  }
  kept.sort((a, b) => a.createdAt - b.createdAt);
  return [
    ...[...subscriptions.values()].map((subscription): JournalRecord => ({ op: 'subscribe', subscription })),
    ...kept.map((delivery): JournalRecord => ({ op: 'enqueue', delivery })),
  ];
}

/** One gateway's webhooks: the journal and the signing key in its data folder. */
async function openLocal(options: WebhookServiceOptions) {
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const signingKey = options.signingKey ? Buffer.from(options.signingKey) : ownSigningKey(options.dir);
  const { journal, records } = await Journal.open<JournalRecord>(join(options.dir, 'journal.ndjson'), (read) => {
    // Replayed into a scratch service, then written back as its live state: the journal starts compact.
    const scratch = new Map<string, Subscription>();
    const scratchDeliveries = new Map<string, Delivery>();
    for (const record of read) replay(record, scratch, scratchDeliveries);
    return liveRecords(scratch, scratchDeliveries);
  });
  return { journal: journal as RecordLog<JournalRecord>, records, signingKey, leadership: soleLeader };
}

/** Webhooks shared by the replicas on one MongoDB catalog: the journal and the signing key in that database, the lead by lease. */
async function openShared(options: WebhookServiceOptions, shared: SharedWebhooks) {
  const failed = (what: string) => (error: unknown) => options.logger.warn({ err: error }, `webhooks: ${what} failed; trying again`);
  const signingKey = Buffer.from(options.signingKey ?? (await MongoJournal.sharedSigningKey(shared.db)));
  const { journal, records } = await MongoJournal.open<JournalRecord>(shared.db, { writer: shared.holder, onError: failed('reading the shared journal') });
  const leadership = new LeaseLeadership(shared.leases, shared.holder, shared.leaseMs, failed('renewing the webhooks lease'));
  return { journal: journal as RecordLog<JournalRecord>, records, signingKey, leadership };
}

/** The gateway's own signing key, made on first start and readable by its owner only. */
function ownSigningKey(dir: string): Buffer {
  const path = join(dir, 'signing-key');
  if (!existsSync(path)) writeFileDurablySync(path, randomBytes(32).toString('hex'), { mode: 0o600 });
  return Buffer.from(readFileSync(path, 'utf8').trim());
}
