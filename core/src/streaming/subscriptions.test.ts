import { expect, test } from 'vitest';
import { Subscriptions } from './subscriptions.js';

type Channel = 'book' | 'trade';

/** Subscriptions over a pretend connection that records what would go to the venue. */
function recorded({ open = true } = {}) {
  const log: string[] = [];
  const subscriptions = new Subscriptions<Channel>({
    channels: ['book', 'trade'],
    canSend: () => open,
    subscribe: (channel, keys) => log.push(`subscribe ${channel} ${keys.join(',')}`),
    unsubscribe: (channel, key) => log.push(`unsubscribe ${channel} ${key}`),
    onIdle: () => log.push('idle'),
  });
  /** A flush asked for outside a want, as a stream does on open or after a gap, and its turn done. */
  const flushed = async () => {
    subscriptions.scheduleFlush();
    await turn();
  };
  const opened = async () => {
    open = true;
    await flushed();
  };
  return { subscriptions, log, flushed, opened };
}

const turn = () => new Promise<void>((resolve) => queueMicrotask(resolve));

test('wants made in one turn go out as one subscribe per channel', async () => {
  const { subscriptions, log } = recorded();
  expect(subscriptions.want('book', 'A')).toBe(true);
  expect(subscriptions.want('book', 'B')).toBe(true);
  expect(subscriptions.want('trade', 'A')).toBe(true);
  expect(subscriptions.want('book', 'A')).toBe(false);
  expect(log).toEqual([]);
  await turn();
  expect(log).toEqual(['subscribe book A,B', 'subscribe trade A']);
  expect(subscriptions.keys('book')).toEqual(['A', 'B']);
});

test('a later flush names only the keys not sent yet', async () => {
  const { subscriptions, log, flushed } = recorded();
  subscriptions.want('book', 'A');
  await turn();
  subscriptions.want('book', 'B');
  await flushed();
  expect(log).toEqual(['subscribe book A', 'subscribe book B']);
});

test('nothing goes out before the connection can send; the flush on open sends it all', async () => {
  const { subscriptions, log, opened } = recorded({ open: false });
  subscriptions.want('book', 'A');
  subscriptions.want('trade', 'B');
  await turn();
  expect(log).toEqual([]);
  await opened();
  expect(log).toEqual(['subscribe book A', 'subscribe trade B']);
});

test('after a reset every wanted key is subscribed again on the next flush', async () => {
  const { subscriptions, log, flushed } = recorded();
  subscriptions.want('book', 'A');
  subscriptions.want('trade', 'B');
  await turn();
  subscriptions.reset();
  await flushed();
  expect(log).toEqual(['subscribe book A', 'subscribe trade B', 'subscribe book A', 'subscribe trade B']);
});

test('a forgotten key is asked for again by the next flush, the others are not', async () => {
  const { subscriptions, log, flushed } = recorded();
  subscriptions.want('book', 'A');
  subscriptions.want('book', 'B');
  await turn();
  expect(subscriptions.forget('book', 'B')).toBe(true);
  expect(subscriptions.forget('book', 'B')).toBe(false);
  await flushed();
  expect(log).toEqual(['subscribe book A,B', 'subscribe book B']);
});

test('unwanting a key never sent sends nothing', async () => {
  const { subscriptions, log, opened } = recorded({ open: false });
  subscriptions.want('book', 'A');
  subscriptions.want('book', 'B');
  subscriptions.unwant('book', 'A');
  await opened();
  expect(log).toEqual(['subscribe book B']);
});

test('unwanting a sent key unsubscribes it, and the last one reports idle', async () => {
  const { subscriptions, log } = recorded();
  subscriptions.want('book', 'A');
  subscriptions.want('trade', 'A');
  await turn();
  subscriptions.unwant('book', 'A');
  expect(subscriptions.idle).toBe(false);
  subscriptions.unwant('trade', 'A');
  expect(subscriptions.idle).toBe(true);
  subscriptions.unwant('trade', 'A');
  expect(log).toEqual(['subscribe book A', 'subscribe trade A', 'unsubscribe book A', 'unsubscribe trade A', 'idle']);
});

test('clear wants nothing any more without unsubscribing or reporting idle', async () => {
  const { subscriptions, log } = recorded();
  subscriptions.want('book', 'A');
  await turn();
  subscriptions.clear();
  expect(subscriptions.idle).toBe(true);
  expect(subscriptions.wants('book', 'A')).toBe(false);
  subscriptions.unwant('book', 'A');
  expect(log).toEqual(['subscribe book A']);
});

test('an isolated key goes out in a command of its own while the others still go out together', async () => {
  const { subscriptions, log, flushed } = recorded();
  for (const key of ['A', 'B', 'C']) subscriptions.want('book', key);
  await turn();
  for (const key of ['A', 'B', 'C']) subscriptions.isolate('book', key);
  subscriptions.want('book', 'D');
  await flushed();
  expect(log).toEqual(['subscribe book A,B,C', 'subscribe book D', 'subscribe book A', 'subscribe book B', 'subscribe book C']);
  // A key no longer wanted is not asked for, alone or otherwise.
  subscriptions.unwant('book', 'B');
  subscriptions.isolate('book', 'B');
  subscriptions.reset();
  await flushed();
  expect(log.slice(6)).toEqual(['subscribe book D', 'subscribe book A', 'subscribe book C']);
});
