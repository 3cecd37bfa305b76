// Child process for the gap test: records the test's local market channel
// into an archive on a clock the test drives over stdin, until killed. Its
// first line sets the clock; each later line `<time> <rows>` moves it to
// `time` once this process has recorded `rows` rows (so every row the test
// sent before it is stamped with the time it was sent at), flushes, and is
// answered `at <time>`: what the test sent so far is then durable.
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { PolymarketArchive, Recorder } from '../src/index.js';

const [dir = '', url = ''] = process.argv.slice(2);
process.stdout.write('loaded\n');
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
let clock = Number((await lines.next()).value);
const now = () => clock;
// Hours roll in this process: a roll process per hour (and one more for the hour a restart recovers) is a Node
// start-up of seconds on a loaded machine, and this test is about gap flags, not where rolls run.
const archive = await PolymarketArchive.open({ dir, now, flushIntervalMs: 10, rollInChildProcess: false });
const recorder = new Recorder({
  archive,
  listTokens: async () => ['1001', '1002'],
  tokensPerConnection: 1,
  refreshIntervalMs: 3_600_000,
  channel: { url, pingIntervalMs: 1_000, backoff: { initialMs: 20, maxMs: 40 } },
  now,
});
await recorder.start();
process.stdout.write('recording\n');
process.on('SIGTERM', () => {
  void recorder
    .stop()
    .then(() => archive.close())
    .then(() => process.exit(0));
});

for (let line = await lines.next(); !line.done; line = await lines.next()) {
  const [time, rows] = line.value.split(' ').map(Number) as [number, number];
  // The rows are on their way over the socket: polled, with a generous overall limit.
  for (let waited = 0; recorder.stats().rows < rows; waited += 1) {
    if (waited > 30_000) throw new Error(`recorded ${recorder.stats().rows} rows of ${rows}`);
    await delay(1);
  }
  clock = time;
  archive.flush();
  process.stdout.write(`at ${time}\n`);
}
