import { MarketChannel } from '@predgate/adapter-polymarket/streams';
import type { MarketChannelOptions, MarketRow } from '@predgate/adapter-polymarket/streams';
import type { PolymarketArchive } from './archive.js';

export interface RecorderOptions {
  archive: PolymarketArchive;
  /** The outcome token ids to record now (the server passes the catalog's active Polymarket markets). */
  listTokens: () => Promise<string[]>;
  /** How often `listTokens` is asked again, to follow markets as they open and close. */
  refreshIntervalMs?: number;
  /** Tokens per connection: beyond ~750 the venue silently stops sending initial snapshots. */
  tokensPerConnection?: number;
  channel?: MarketChannelOptions;
  now?: () => number;
  logger?: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

export interface RecorderStats {
  messages: number;
  rows: number;
  connections: number;
  openConnections: number;
  tokens: number;
  gaps: number;
  unreadable: number;
  journalLagMs: number;
}

/**
 * Records Polymarket's market channel into the archive: the current tokens
 * sharded over connections of at most `tokensPerConnection`, followed as the
 * token list changes, every connection drop (and every refused redial) written as one gap.
 */
export class Recorder {
  private readonly shards: MarketChannel[] = [];
  private readonly shardOf = new Map<string, MarketChannel>();
  private readonly counts = { messages: 0, rows: 0, gaps: 0, unreadable: 0 };
  private refreshTimer: NodeJS.Timeout | undefined;
  private rollTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();

  constructor(private readonly options: RecorderOptions) {}

  async start(): Promise<void> {
    await this.refresh();
    this.refreshTimer = setInterval(() => void this.refresh(), this.options.refreshIntervalMs ?? 60_000);
    this.refreshTimer.unref();
    this.rollTimer = setInterval(() => {
      this.options.archive.rollDue().catch((error: unknown) => this.options.logger?.warn({ err: error }, 'archive: rolling an hour failed'));
    }, 1_000);
    this.rollTimer.unref();
  }

  /** Subscribes tokens that appeared and unsubscribes tokens that left, on the open connections. */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing.then(async () => {
      let wanted: Set<string>;
      try {
        wanted = new Set(await this.options.listTokens());
      } catch (error) {
        this.options.logger?.warn({ err: error }, 'archive: could not list the tokens to record; keeping the current ones');
        return;
      }
      const removed = [...this.shardOf.keys()].filter((id) => !wanted.has(id));
      for (const id of removed) {
        this.shardOf.get(id)!.unsubscribe([id]);
        this.shardOf.delete(id);
      }
      const added = [...wanted].filter((id) => !this.shardOf.has(id));
      const perConnection = this.options.tokensPerConnection ?? 500;
      while (added.length > 0) {
        let shard = this.shards.find((candidate) => candidate.assetIds.size < perConnection);
        if (!shard) shard = this.openShard();
        const batch = added.splice(0, perConnection - shard.assetIds.size);
        for (const id of batch) this.shardOf.set(id, shard);
        shard.subscribe(batch);
      }
    });
    return this.refreshing;
  }

  stats(): RecorderStats {
    return {
      ...this.counts,
      connections: this.shards.length,
      openConnections: this.shards.filter((shard) => shard.connected).length,
      tokens: this.shardOf.size,
      journalLagMs: this.options.archive.journalLagMs,
    };
  }

  async stop(): Promise<void> {
    clearInterval(this.refreshTimer);
    clearInterval(this.rollTimer);
    await this.refreshing;
    await Promise.all(this.shards.map((shard) => shard.close()));
    this.options.archive.flush();
  }

  private openShard(): MarketChannel {
    // pmxt's files hold book, price_change, last_trade_price and tick_size_change: the channel's optional messages are not asked for.
    const shard = new MarketChannel({ ...this.options.channel, customFeatures: false, now: this.options.now ?? this.options.channel?.now });
    shard.on('rows', (rows, receivedAt, frame) => this.record(rows, { text: frame, receivedAt }));
    shard.on('unreadable', (error, frame) => {
      this.counts.unreadable += 1;
      this.options.logger?.warn({ err: error, frame: frame.slice(0, 200) }, 'archive: unreadable market-channel frame');
    });
    shard.on('resumed', (outage) => {
      this.counts.gaps += 1;
      this.options.archive.markGap({ from: outage.from, to: outage.to, assetIds: outage.assetIds, reason: outage.reason });
    });
    shard.on('error', (error) => this.options.logger?.warn({ err: error }, 'archive: market-channel connection error'));
    this.shards.push(shard);
    shard.connect();
    return shard;
  }

  private record(rows: MarketRow[], frame: { text: string; receivedAt: number }): void {
    this.counts.messages += 1;
    this.counts.rows += rows.length;
    this.options.archive.append(rows, frame);
  }
}
