import { oncePerTurn } from './per-turn.js';

export interface SubscriptionsOptions<Channel extends string> {
  channels: readonly Channel[];
  /** Whether commands can go out now: a flush before the connection opens sends nothing, and the stream flushes again on open. */
  canSend(): boolean;
  /** Subscribe these keys of `channel`, none of them sent yet on this connection; they count as sent from here on. */
  subscribe(channel: Channel, keys: string[]): void;
  /** Tell the venue to stop sending `key` of `channel`, which it had been asked for on this connection. */
  unsubscribe(channel: Channel, key: string): void;
  /** The last wanted key went: the connection is no longer needed. */
  onIdle(): void;
}

/**
 * What a venue stream wants from its one connection, by channel, and what it
 * has already asked the venue for on that connection. Wants made in the same
 * turn go out together: one flush per microtask hands each channel's keys not
 * yet sent to `subscribe`, so a burst of watches becomes one command per
 * channel where the venue takes several keys at once. The message formats,
 * command ids and acknowledgements stay with the venue stream.
 */
export class Subscriptions<Channel extends string> {
  private readonly wanted = new Map<Channel, Set<string>>();
  private readonly sent = new Map<Channel, Set<string>>();
  /** Keys asked for in a command of their own: the venue refused a batch naming them without saying which it did not know. */
  private readonly alone = new Map<Channel, Set<string>>();

  constructor(private readonly options: SubscriptionsOptions<Channel>) {
    for (const channel of options.channels) {
      this.wanted.set(channel, new Set());
      this.sent.set(channel, new Set());
      this.alone.set(channel, new Set());
    }
  }

  /** Nothing is wanted on any channel. */
  get idle(): boolean {
    return this.options.channels.every((channel) => this.wantedOn(channel).size === 0);
  }

  /** The keys wanted on `channel`, in the order they were first wanted. */
  keys(channel: Channel): string[] {
    return [...this.wantedOn(channel)];
  }

  wants(channel: Channel, key: string): boolean {
    return this.wantedOn(channel).has(key);
  }

  /** Wants `key` and schedules a flush; false, with nothing scheduled, when it was wanted already. */
  want(channel: Channel, key: string): boolean {
    const wanted = this.wantedOn(channel);
    if (wanted.has(key)) return false;
    wanted.add(key);
    this.scheduleFlush();
    return true;
  }

  /** Stops wanting `key`: unsubscribed when it had been sent, and `onIdle` when it was the last wanted key. */
  unwant(channel: Channel, key: string): void {
    if (!this.wantedOn(channel).delete(key)) return;
    this.aloneOn(channel).delete(key);
    if (this.sentOn(channel).delete(key)) this.options.unsubscribe(channel, key);
    if (this.idle) this.options.onIdle();
  }

  /**
   * The venue did not take `key` (refused, or a subscription it had to drop): the next flush asks for it again.
   * True when it had been sent on this connection.
   */
  forget(channel: Channel, key: string): boolean {
    return this.sentOn(channel).delete(key);
  }

  /**
   * The venue refused `key` in a batch, not saying which of its keys it did not know: the next flush asks for
   * it again in a command of its own, so an unknown key is refused alone and the others are served.
   */
  isolate(channel: Channel, key: string): void {
    this.sentOn(channel).delete(key);
    if (this.wants(channel, key)) this.aloneOn(channel).add(key);
  }

  /** The connection went down: nothing is subscribed on the next one until it is flushed again. */
  reset(): void {
    for (const sent of this.sent.values()) sent.clear();
  }

  /** Wants nothing any more, without unsubscribing: for a stream closing its connection anyway. */
  clear(): void {
    for (const wanted of this.wanted.values()) wanted.clear();
  }

  /** Flushes once the current turn is done, so wants made together are subscribed together. */
  readonly scheduleFlush = oncePerTurn(() => this.flush());

  private flush(): void {
    if (!this.options.canSend()) return;
    for (const channel of this.options.channels) {
      const sent = this.sentOn(channel);
      const fresh = [...this.wantedOn(channel)].filter((key) => !sent.has(key));
      if (fresh.length === 0) continue;
      for (const key of fresh) sent.add(key);
      const alone = this.aloneOn(channel);
      const together = fresh.filter((key) => !alone.has(key));
      if (together.length > 0) this.options.subscribe(channel, together);
      for (const key of fresh) if (alone.has(key)) this.options.subscribe(channel, [key]);
    }
  }

  private wantedOn(channel: Channel): Set<string> {
    return this.wanted.get(channel)!;
  }

  private sentOn(channel: Channel): Set<string> {
    return this.sent.get(channel)!;
  }

  private aloneOn(channel: Channel): Set<string> {
    return this.alone.get(channel)!;
  }
}
