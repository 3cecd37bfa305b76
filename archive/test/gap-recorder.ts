// Child process for the gap test: records the test's local market channel
// into an archive on a clock shared with the test (virtual time = a start
// near an hour edge + real time since a moment both processes know), until
// killed. The clock arrives on stdin once this process has loaded, so its
// start-up time does not eat into the test's script.
import { createInterface } from 'node:readline';
import { PolymarketArchive, Recorder } from '../src/index.js';

const [dir = '', url = ''] = process.argv.slice(2);
process.stdout.write('loaded\n');
const lines = createInterface({ input: process.stdin });
const [virtualStart, realStart] = (await new Promise<string>((resolve) => lines.once('line', resolve))).split(' ').map(Number) as [number, number];
const now = () => virtualStart + (Date.now() - realStart);
const archive = await PolymarketArchive.open({ dir, now, flushIntervalMs: 10 });
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
