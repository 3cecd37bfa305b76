// Child process for the kill -9 test: records synthetic rows as fast as it
// can, with a clock that leaves an hour every `rowsPerHour` rows so hours are
// rolled into Parquet while it runs, and reports each flushed row count on stdout.
// With CRASH_ROLL_IN_PROCESS set it rolls in its own process: a restart's
// recovery then rolls the hours the killed writer left without starting a
// roll process per hour, each a Node start-up of seconds on a loaded machine.
import { PolymarketArchive } from '../src/index.js';

const [dir = '', rowsPerHourText] = process.argv.slice(2);
const rowsPerHour = Number(rowsPerHourText);
const market = `0x${'4d'.repeat(32)}`;
const start = Date.UTC(2026, 10, 24, 0, 0, 0);
let written = Number(process.env.CRASH_FIRST_ROW ?? 0);
// A restarted writer numbers its rows apart and runs its clock later, as a real restart would.
const sizeOffset = Number(process.env.CRASH_SIZE_OFFSET ?? 0);
const timeOffset = Number(process.env.CRASH_TIME_OFFSET ?? 0);
const timeOf = (n: number) => start + timeOffset + Math.floor(n / rowsPerHour) * 3_600_000 + (n % rowsPerHour) * 10;
let now = timeOf(written);
const archive = await PolymarketArchive.open({
  dir,
  now: () => now,
  checkpointEvery: 7,
  flushIntervalMs: 60_000,
  rollInChildProcess: process.env.CRASH_ROLL_IN_PROCESS === undefined,
});

for (;;) {
  for (let batch = 0; batch < 20; batch += 1, written += 1) {
    now = timeOf(written);
    const assetId = String(1000 + (written % 3));
    archive.append([
      written % 25 === 0
        ? {
            receivedAt: now,
            timestamp: now,
            market,
            eventType: 'book',
            assetId,
            bids: [{ price: '0.4', size: String(written + sizeOffset) }],
            asks: [{ price: '0.6', size: '5' }],
          }
        : {
            receivedAt: now,
            timestamp: now,
            market,
            eventType: 'price_change',
            assetId,
            price: '0.45',
            size: String(written + sizeOffset),
            side: 'BUY',
          },
    ]);
  }
  archive.flush();
  process.stdout.write(`flushed ${written}\n`);
  // Rolling runs between batches, as it does under a live recorder.
  await new Promise((resolve) => setImmediate(resolve));
}
