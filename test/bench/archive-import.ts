// Imports one hourly file into a fresh archive and prints how long it took
// and this process's peak resident memory, for the archive bench.
import { PolymarketArchive } from '../../archive/src/index.js';

const [file = '', dir = ''] = process.argv.slice(2);
const started = performance.now();
const archive = await PolymarketArchive.open({ dir, mode: 'read' });
await archive.importFiles([file]);
await archive.close();
process.stdout.write(JSON.stringify({ ms: performance.now() - started, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
