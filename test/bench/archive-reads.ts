// The archive bench's read figures alone, on an hour it kept
// (`ARCHIVE_BENCH_KEEP=<dir> pnpm bench archive`): compares reader changes on
// one hour without recording and rolling it again. Usage:
// `node --conditions=predgate-source --import tsx bench/archive-reads.ts <dir> [tokens] [rounds]`.
import { readFigures } from './archive.bench.js';

const [dir, tokens = '40000', rounds = '1'] = process.argv.slice(2);
if (!dir) throw new Error('usage: archive-reads.ts <dir> [tokens] [rounds]');
for (let round = 0; round < Number(rounds); round += 1) process.stdout.write(`${JSON.stringify(await readFigures(dir, Number(tokens)))}\n`);
