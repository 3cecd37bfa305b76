import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PredgateError } from '@predgate/core';
import type { ArchiveOptions } from './archive.js';
import { forkArchiveProcess } from './child-process.js';
import type { AssetHour, HourSource } from './reconstruct.js';
import type { RecorderOptions, RecorderStats } from './recorder.js';

/** What the recording process is started with (plain data: it crosses to the child as JSON). */
export interface RecordingJob {
  archive: Pick<ArchiveOptions, 'dir' | 'flushIntervalMs' | 'checkpointEvery' | 'rollMemoryLimit'>;
  recorder: Pick<RecorderOptions, 'tokensPerConnection' | 'refreshIntervalMs'> & { channel?: { url?: string } };
  /** How often the child reports its figures. */
  statsIntervalMs: number;
}

export type RecordingRequest =
  | { type: 'tokens'; id: number; tokens?: string[]; error?: string }
  | { type: 'assetHour'; id: number; start: number; assetId: string; since: number; until?: number }
  | { type: 'stop' };

export type RecordingReply =
  | { type: 'ready'; pid: number }
  | { type: 'listTokens'; id: number }
  | { type: 'assetHour'; id: number; hour?: AssetHour; error?: string }
  | { type: 'stats'; stats: RecorderStats }
  | { type: 'log'; level: 'warn' | 'info'; object: object; message: string };

export interface RecordingOptions extends Omit<RecordingJob, 'statsIntervalMs'> {
  /** The tokens to record now, asked by the child when it starts and every `refreshIntervalMs`. */
  listTokens: () => Promise<string[]>;
  logger?: { warn(object: object, message: string): void; info(object: object, message: string): void };
  /** Wait before the first restart after a crash; doubles while crashes follow each other, up to 30 s. */
  restartDelayMs?: number;
  statsIntervalMs?: number;
}

export interface RecordingStats extends RecorderStats {
  /** The recording process, while one runs. */
  pid?: number;
  /** Times the recording process ended unasked and was started again. */
  restarts: number;
}

const zeroStats: RecorderStats = { messages: 0, rows: 0, connections: 0, openConnections: 0, tokens: 0, gaps: 0, unreadable: 0, journalLagMs: 0 };

/**
 * Records Polymarket's market channel in a child process of its own (a
 * `Recorder` over a writing `PolymarketArchive`), so frames, the journal and
 * the hourly rolls never run on this process's event loop. A child that ends
 * unasked is reported (`crashed`, and a warning) and started again; it
 * recovers its journal, so every row it had flushed is kept, and the time it
 * was down becomes a gap. As an `HourSource` it answers for hours not yet
 * published (the open hour's journal, an hour being rolled).
 */
export class RecordingProcess
  extends EventEmitter<{ started: [pid: number]; crashed: [exit: { code: number | null; signal: NodeJS.Signals | null }] }>
  implements HourSource
{
  private child: ChildProcess | undefined;
  private ready = false;
  private stopping = false;
  private current: RecorderStats = zeroStats;
  /** Counters of children that ended, so totals never go back. */
  private ended = { messages: 0, rows: 0, gaps: 0, unreadable: 0 };
  private restarts = 0;
  private nextDelayMs: number;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<number, { resolve: (hour: AssetHour | undefined) => void; reject: (error: Error) => void }>();
  private nextRequest = 0;

  constructor(private readonly options: RecordingOptions) {
    super();
    this.nextDelayMs = options.restartDelayMs ?? 1_000;
  }

  /** Starts the recording process; resolves once it records, rejects if it ends before that. */
  start(): Promise<void> {
    this.stopping = false;
    return this.spawn();
  }

  stats(): RecordingStats {
    return {
      ...this.current,
      messages: this.ended.messages + this.current.messages,
      rows: this.ended.rows + this.current.rows,
      gaps: this.ended.gaps + this.current.gaps,
      unreadable: this.ended.unreadable + this.current.unreadable,
      restarts: this.restarts,
      ...(this.ready && this.child?.pid !== undefined ? { pid: this.child.pid } : {}),
    };
  }

  /** A token's rows of an hour the recording process holds unpublished; refused while no recording process runs. */
  assetHour(start: number, assetId: string, since: number, until?: number): Promise<AssetHour | undefined> {
    const child = this.child;
    if (!child || !this.ready) {
      return Promise.reject(
        new PredgateError('EXCHANGE_NOT_AVAILABLE', "The archive's recording process is restarting; the open hour is readable again shortly"),
      );
    }
    this.nextRequest += 1;
    const id = this.nextRequest;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      child.send({ type: 'assetHour', id, start, assetId, since, ...(until === undefined ? {} : { until }) } satisfies RecordingRequest);
    });
  }

  /** Asks the recording process to flush and stop (its hour rolls, if one is due), and waits for it to end. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.connected) child.send({ type: 'stop' } satisfies RecordingRequest);
    await exited;
  }

  private spawn(): Promise<void> {
    const child = forkArchiveProcess('recording-process', {
      archive: this.options.archive,
      recorder: this.options.recorder,
      statsIntervalMs: this.options.statsIntervalMs ?? 1_000,
    } satisfies RecordingJob);
    this.child = child;
    this.ready = false;
    return new Promise((resolve, reject) => {
      child.on('message', (message: RecordingReply) => {
        if (message.type === 'ready') {
          this.ready = true;
          this.nextDelayMs = this.options.restartDelayMs ?? 1_000;
          this.emit('started', message.pid);
          resolve();
        } else {
          this.receive(child, message);
        }
      });
      child.once('exit', (code, signal) => {
        const wasReady = this.ready;
        this.ended = {
          messages: this.ended.messages + this.current.messages,
          rows: this.ended.rows + this.current.rows,
          gaps: this.ended.gaps + this.current.gaps,
          unreadable: this.ended.unreadable + this.current.unreadable,
        };
        this.current = zeroStats;
        this.ready = false;
        if (this.child === child) this.child = undefined;
        for (const request of this.pending.values())
          request.reject(new PredgateError('EXCHANGE_NOT_AVAILABLE', "The archive's recording process ended; it is being restarted"));
        this.pending.clear();
        if (this.stopping) return resolve();
        if (!wasReady) reject(new Error(`the archive's recording process ended before recording (code ${code}, signal ${signal})`));
        this.options.logger?.warn(
          { code, signal },
          'archive: the recording process ended unasked; starting it again (flushed rows are kept, the time it was down is a gap)',
        );
        this.emit('crashed', { code, signal });
        if (wasReady) this.scheduleRestart();
      });
    });
  }

  private scheduleRestart(): void {
    const delay = this.nextDelayMs;
    this.nextDelayMs = Math.min(this.nextDelayMs * 2, 30_000);
    this.restartTimer = setTimeout(() => {
      this.restarts += 1;
      this.spawn().catch((error: unknown) => {
        this.options.logger?.warn({ err: error }, 'archive: the recording process could not start again; trying later');
        if (!this.stopping) this.scheduleRestart();
      });
    }, delay);
    this.restartTimer.unref();
  }

  private receive(child: ChildProcess, message: RecordingReply): void {
    switch (message.type) {
      case 'listTokens':
        this.options.listTokens().then(
          (tokens) => child.connected && child.send({ type: 'tokens', id: message.id, tokens } satisfies RecordingRequest),
          (error: unknown) => child.connected && child.send({ type: 'tokens', id: message.id, error: (error as Error).message } satisfies RecordingRequest),
        );
        break;
      case 'assetHour': {
        const request = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error !== undefined) request?.reject(new Error(message.error));
        else request?.resolve(message.hour);
        break;
      }
      case 'stats':
        this.current = message.stats;
        break;
      case 'log':
        this.options.logger?.[message.level](message.object, message.message);
        break;
      default:
        break;
    }
  }
}
