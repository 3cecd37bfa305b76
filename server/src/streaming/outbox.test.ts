import { describe, expect, test, vi } from 'vitest';
import { Outbox, slowConsumerCloseCode } from './outbox.js';
import type { FrameSink } from './outbox.js';

/** A socket whose unsent bytes the test sets, and whose writes complete when the test says. */
function fakeSink() {
  const sent: string[] = [];
  const pending: Array<() => void> = [];
  const sink = {
    bufferedAmount: 0,
    closed: undefined as [number, string] | undefined,
    send(text: string, done: (error?: Error) => void) {
      sent.push(text);
      pending.push(() => done());
    },
    close(code: number, reason: string) {
      sink.closed = [code, reason];
    },
  } satisfies FrameSink & Record<string, unknown>;
  return { sink, sent, flush: () => pending.splice(0).forEach((done) => done()) };
}

describe('the outbox of one client', () => {
  test('sends at once while the socket keeps up', () => {
    const { sink, sent } = fakeSink();
    const outbox = new Outbox(sink, { highWaterBytes: 100, maxFrames: 3, slowConsumerMs: 1_000 });
    outbox.push('a', 'k');
    outbox.push('b', 'k');
    expect(sent).toEqual(['a', 'b']);
    expect(outbox.backlog).toBe(0);
  });

  test('behind the high-water mark, a newer book replaces the waiting one of the same key; frames without a key wait in order', () => {
    const { sink, sent } = fakeSink();
    const outbox = new Outbox(sink, { highWaterBytes: 100, maxFrames: 5, slowConsumerMs: 1_000 });
    sink.bufferedAmount = 500;
    outbox.push('book-1', 'sub\nA');
    outbox.push('trade-1');
    outbox.push('book-2', 'sub\nA');
    outbox.push('book-3', 'sub\nA');
    outbox.push('other-1', 'sub\nB');
    expect(outbox.backlog).toBe(3);
    expect(outbox.dropped).toBe(2);
    // Once frames wait, new ones queue behind them even if the socket has room, so order holds.
    sink.bufferedAmount = 0;
    outbox.push('trade-2');
    expect(sent).toEqual([]);
    expect(outbox.backlog).toBe(4);
  });

  test('drains when an earlier write completes, in order', () => {
    const { sink, sent, flush } = fakeSink();
    const outbox = new Outbox(sink, { highWaterBytes: 100, maxFrames: 5, slowConsumerMs: 1_000 });
    outbox.push('first');
    sink.bufferedAmount = 500;
    outbox.push('book-1', 'A');
    outbox.push('book-2', 'A');
    outbox.push('trade');
    sink.bufferedAmount = 0;
    flush();
    expect(sent).toEqual(['first', 'book-2', 'trade']);
    expect(outbox.backlog).toBe(0);
  });

  test('more frames waiting than allowed disconnects the client with 1013 and the reason', () => {
    const { sink } = fakeSink();
    const onSlow = vi.fn();
    const outbox = new Outbox(sink, { highWaterBytes: 100, maxFrames: 2, slowConsumerMs: 1_000, onSlow });
    sink.bufferedAmount = 500;
    for (const text of ['t1', 't2', 't3']) outbox.push(text);
    expect(sink.closed).toEqual([slowConsumerCloseCode, 'slow consumer: more than 2 frames waiting']);
    expect(onSlow).toHaveBeenCalledOnce();
    outbox.push('after');
    expect(outbox.backlog).toBe(0);
  });

  test('a client still behind after slowConsumerMs is disconnected, even when its books were coalesced', () => {
    vi.useFakeTimers();
    try {
      const { sink } = fakeSink();
      const outbox = new Outbox(sink, { highWaterBytes: 100, maxFrames: 10, slowConsumerMs: 200 });
      sink.bufferedAmount = 500;
      for (let index = 0; index < 50; index += 1) outbox.push(`book-${index}`, 'A');
      expect(outbox.backlog).toBe(1);
      vi.advanceTimersByTime(199);
      expect(sink.closed).toBeUndefined();
      vi.advanceTimersByTime(2);
      expect(sink.closed).toEqual([slowConsumerCloseCode, 'slow consumer: behind for more than 200 ms']);
    } finally {
      vi.useRealTimers();
    }
  });
});
