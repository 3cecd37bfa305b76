// The recording process of the archive bench, started with the archive
// processes' own Node flags: records the synthetic hour into an archive as
// the recorder drives it (frame parsing, journal, books), then closes the
// hour and waits for its roll (in a child process) while watching this
// process's event loop. Before the roll, the bench's read queries are asked of
// the open hour (its journal). Prints its figures as JSON. With `record-only`
// as a fourth argument it stops after recording (for measuring the recorder alone).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readMarketFrame } from '@predgate/adapter-polymarket/streams';
import { PolymarketArchive } from '../../archive/src/index.js';
import { hour, hourMs, seeded, syntheticHour } from './archive-hour.js';
import { queryFigures } from './archive-queries.js';

const [dir = '', targetRows = '0', tokens = '0', mode = 'roll'] = process.argv.slice(2);
/** Frames handed over at a time, about what one read of a busy socket delivers: the driver's frames die young, as a socket's do. */
const framesPerBurst = 100;
const flushIntervalMs = 200;
let now = hour;
const archive = await PolymarketArchive.open({ dir, now: () => now, flushIntervalMs });
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 100);
let rows = 0;
let messages = 0;
let cpuMicros = 0;
/**
 * The part of it spent in the kernel, mostly the journal's writes and syncs. Reported apart because it depends on
 * the machine: on a virtual machine whose host maps guest memory on first touch (a microVM restored from a
 * snapshot), each page the page cache uses for the first time cost about 4 ms per MB here, 5-20x a later use.
 */
let systemMicros = 0;
let flushedAt = performance.now();
// Only the recorder's work is timed: building the frames (the driver) is left out.
for (const frames of syntheticHour(Number(targetRows), Number(tokens), seeded(42), framesPerBurst)) {
  const started = process.cpuUsage();
  for (const frame of frames) {
    now = frame.at;
    const read = readMarketFrame(frame.text, frame.at);
    archive.append(read.rows, { text: frame.text, receivedAt: frame.at });
    rows += read.rows.length;
  }
  // Recording here runs without turning the event loop, so the archive's flush timer is stood in for, at its interval.
  const flushDue = performance.now() - flushedAt >= flushIntervalMs;
  if (flushDue) {
    archive.flush();
    flushedAt = performance.now();
  }
  const used = process.cpuUsage(started);
  cpuMicros += used.user + used.system;
  systemMicros += used.system;
  messages += frames.length;
  // Nor does the sampler's timer run: the size is read at each flush.
  if (flushDue) peakRss = Math.max(peakRss, process.memoryUsage.rss());
}
const lastFlush = process.cpuUsage();
archive.flush();
const lastUsed = process.cpuUsage(lastFlush);
cpuMicros += lastUsed.user + lastUsed.system;
systemMicros += lastUsed.system;
const recordPeakRssBytes = peakRss;
process.stderr.write(
  `recorded ${rows} rows, ${messages} messages: ${Math.round(messages / (cpuMicros / 1e6))} msg/s per core (kernel ${Math.round((100 * systemMicros) / cpuMicros)}%), peak RSS ${Math.round(peakRss / 2 ** 20)} MiB\n`,
);
if (mode === 'record-only') {
  clearInterval(sampler);
  await archive.close();
  process.stdout.write(JSON.stringify({ rows, messages, cpuMicros, systemMicros, recordPeakRssBytes }));
  process.exit(0);
}

const openHour = await queryFigures(archive, Number(tokens));

// The hour closes: it is rolled in a child process while this loop's delay is watched.
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
now = hour + hourMs + 1;
const rolling = performance.now();
await archive.rollDue();
const rollMs = performance.now() - rolling;
delay.disable();
clearInterval(sampler);
const roll = archive.lastRoll!;
await archive.close();
process.stdout.write(
  JSON.stringify({
    openHour,
    rows,
    messages,
    cpuMicros,
    systemMicros,
    recordPeakRssBytes,
    rollMs,
    rollRows: roll.rows,
    rollPeakRssBytes: roll.peakRssBytes ?? 0,
    delayP99Ms: delay.percentile(99) / 1e6,
    delayMaxMs: delay.max / 1e6,
  }),
);
