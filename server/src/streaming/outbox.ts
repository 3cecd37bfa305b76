/** The part of a WebSocket the outbox writes to (a `ws` WebSocket; a fake in tests). */
export interface FrameSink {
  readonly bufferedAmount: number;
  send(text: string, done: (error?: Error) => void): void;
  close(code: number, reason: string): void;
}

export interface OutboxOptions {
  /** Bytes the socket may hold unsent before frames wait in the outbox. */
  highWaterBytes: number;
  /** Frames that may wait; one more disconnects the client. */
  maxFrames: number;
  /** A client whose outbox stays non-empty this long is disconnected. */
  slowConsumerMs: number;
  /** Told when a client is disconnected for being slow, with the reason. */
  onSlow?: (reason: string) => void;
}

interface Waiting {
  /** Frames with a key replace the waiting frame of the same key (a newer full book replaces an older one). */
  key: string | undefined;
  text: string;
  /** The subscription the frame belongs to, so its frames can be dropped when it ends. */
  owner: string | undefined;
}

/** WebSocket close code for a client dropped for falling behind (1013: try again later). */
export const slowConsumerCloseCode = 1013;

/**
 * One client's bounded send buffer, with the slow-consumer policy: frames go
 * straight to the socket while it keeps up; once it holds `highWaterBytes`
 * unsent, frames wait here, where a newer book replaces the waiting one of the
 * same subscription and symbol (drop to the latest book). A client still
 * behind after `slowConsumerMs`, or with more than `maxFrames` waiting, is
 * disconnected with code 1013 and a reason saying so.
 */
export class Outbox {
  private readonly waiting: Waiting[] = [];
  private stallTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Frames replaced by newer ones while waiting. */
  dropped = 0;

  constructor(
    private readonly sink: FrameSink,
    private readonly options: OutboxOptions,
  ) {}

  get backlog(): number {
    return this.waiting.length;
  }

  /** Queues one frame; `key` marks frames where only the latest matters, `owner` the subscription it belongs to. */
  push(text: string, key?: string, owner?: string): void {
    if (this.closed) return;
    if (this.waiting.length === 0 && this.sink.bufferedAmount < this.options.highWaterBytes) {
      this.write(text);
      return;
    }
    if (key !== undefined) {
      const earlier = this.waiting.find((frame) => frame.key === key);
      if (earlier) {
        earlier.text = text;
        this.dropped += 1;
        return;
      }
    }
    this.waiting.push({ key, text, owner });
    if (this.waiting.length > this.options.maxFrames) {
      this.disconnect(`slow consumer: more than ${this.options.maxFrames} frames waiting`);
      return;
    }
    if (!this.stallTimer) {
      this.stallTimer = setTimeout(() => this.disconnect(`slow consumer: behind for more than ${this.options.slowConsumerMs} ms`), this.options.slowConsumerMs);
      this.stallTimer.unref();
    }
  }

  /** Drops the waiting frames of a subscription that ended, so none reaches the client after it. */
  discard(owner: string): void {
    for (let index = this.waiting.length - 1; index >= 0; index -= 1) if (this.waiting[index]!.owner === owner) this.waiting.splice(index, 1);
    if (this.waiting.length === 0) {
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
    }
  }

  /** Stops sending (the socket closed); drops what waits. */
  close(): void {
    this.closed = true;
    clearTimeout(this.stallTimer);
    this.waiting.length = 0;
  }

  private write(text: string): void {
    this.sink.send(text, (error) => {
      if (!error) this.drain();
    });
  }

  private drain(): void {
    while (!this.closed && this.waiting.length > 0 && this.sink.bufferedAmount < this.options.highWaterBytes) {
      this.write(this.waiting.shift()!.text);
    }
    if (this.waiting.length === 0) {
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
    }
  }

  private disconnect(reason: string): void {
    if (this.closed) return;
    this.close();
    this.options.onSlow?.(reason);
    this.sink.close(slowConsumerCloseCode, reason);
  }
}
