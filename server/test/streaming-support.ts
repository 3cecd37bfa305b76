import { once } from 'node:events';
import { until as waitUntil } from '@predgate/core/testkit';
import WebSocket from 'ws';
import type { Event } from '@predgate/core';
import type { StreamingConfig } from '../src/config.js';
import type { TestApp } from './helpers.js';

/** A client socket on `/ws` that collects every frame it receives. */
export class Client {
  readonly frames: Array<Record<string, unknown>> = [];
  private readonly waiters: Array<() => void> = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(url: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
    const ws = new WebSocket(url, options);
    const client = new Client(ws);
    await once(ws, 'open');
    return client;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Waits for a frame matching `test` that arrived at or after index `from`; fails after `ms` (generous: it only catches a frame that never comes). */
  async next(test: (frame: Record<string, unknown>) => boolean, ms = 30_000, from = 0): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.slice(from).find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching frame in ${ms} ms; got ${JSON.stringify(this.frames.slice(-5)).slice(0, 2_000)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
  }

  count(test: (frame: Record<string, unknown>) => boolean): number {
    return this.frames.filter(test).length;
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = once(this.ws, 'close');
    this.ws.close();
    await closed;
  }
}

/** The gateway's streaming settings with a short data timeout, and bounds no test reaches. */
export function venueStreaming(dataTimeoutMs: number): StreamingConfig {
  return {
    dataTimeoutMs,
    heartbeatMs: 30_000,
    maxFrameBytes: 64 * 1024,
    maxMessageBytes: 1024 * 1024,
    maxSymbols: 100,
    maxWatchesPerKey: 1_000,
    highWaterBytes: 1024 * 1024,
    maxQueuedFrames: 1_000,
    slowConsumerMs: 10_000,
    httpWaitMs: 1_000,
    httpIdleMs: 1_000,
  };
}

export const dataOf = (id: string) => (frame: Record<string, unknown>) => frame.event === 'data' && frame.id === id;
export const errorOf = (id: string | null) => (frame: Record<string, unknown>) => frame.event === 'error' && frame.id === id;

/** The testkit's `until`, with its arguments in the order these tests give them: the time first, the name optional. */
export function until(condition: () => boolean, ms = 30_000, what = 'condition'): Promise<void> {
  return waitUntil(condition, what, ms);
}

/** Outcome ids of the active markets among the mock venue's first events. */
export async function activeOutcomes(app: TestApp, events = 5): Promise<string[]> {
  const listed = (await app.call({ url: `/api/mock/fetchEvents?limit=${events}` })).result as { data: Event[] };
  return listed.data.flatMap((event) =>
    event.markets.filter((market) => market.status === 'active').flatMap((market) => market.outcomes.map((outcome) => outcome.outcomeId)),
  );
}
