// `pnpm bench`: runs every benchmark and writes its figures to results/.
// Each figure is measured in the same run as its baseline. Pick benchmarks
// with arguments: `pnpm bench gateway`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { benchGateway } from './gateway.bench.js';
import type { ComparedFigures } from './gateway.bench.js';
import { benchRouter } from './router.bench.js';
import { benchCold } from './cold.bench.js';
import { benchArchive } from './archive.bench.js';
import { benchRequestPath } from './request-path.bench.js';
import { benchSoak } from './soak.bench.js';
import { benchStream } from './stream.bench.js';
import { benchWebhooks } from './webhooks.bench.js';

const benches: Record<string, () => Promise<{ figures: ComparedFigures[]; summary?: string; details?: object }>> = {
  gateway: async () => ({ figures: await benchGateway() }),
  router: async () => ({ figures: [], ...(await benchRouter()) }),
  archive: async () => ({ figures: [], ...(await benchArchive()) }),
  soak: async () => ({ figures: [], ...(await benchSoak()) }),
  requests: async () => ({ figures: [], ...(await benchRequestPath()) }),
  stream: async () => ({ figures: [], ...(await benchStream()) }),
  webhooks: async () => ({ figures: [], ...(await benchWebhooks()) }),
  cold: async () => ({ figures: [], ...(await benchCold()) }),
};

const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(benches);
const resultsDir = new URL('./results/', import.meta.url).pathname;
mkdirSync(resultsDir, { recursive: true });
const machine = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', date: new Date().toISOString() };

for (const name of chosen) {
  const run = benches[name];
  if (!run) throw new Error(`no benchmark "${name}"; there are: ${Object.keys(benches).join(', ')}`);
  process.stdout.write(`\n# ${name}\n`);
  const { figures, summary, details } = await run();
  if (summary) {
    // Benchmarks with their own report (more than one table, or no HTTP targets) write it as it is.
    process.stdout.write(`${summary}\n`);
    writeFileSync(`${resultsDir}${name}.json`, `${JSON.stringify({ machine, figures: details }, null, 2)}\n`);
    writeFileSync(`${resultsDir}${name}.md`, `# ${name} benchmark\n\n${machine.cpus} × ${machine.cpu}, Node ${machine.node}, ${machine.date}.\n\n${summary}\n`);
    continue;
  }
  const table = [
    '| target | req/s | p50 ms | p95 ms | p97.5 ms | p99 ms | non-2xx | ceiling req/s | ceiling p50 ms | ceiling p95 ms | ceiling p99 ms | ratio | 1 connection: p50 / p95 / p99 ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...figures.map(
      ({ target, ceiling, ratio, unloaded }) =>
        `| ${target.name} | ${target.requestsPerSecond} | ${target.p50} | ${target.p95} | ${target.p97_5} | ${target.p99} | ${target.non2xx} | ${ceiling.requestsPerSecond} | ${ceiling.p50} | ${ceiling.p95} | ${ceiling.p99} | ${ratio} | ${unloaded ? `${unloaded.p50} / ${unloaded.p95} / ${unloaded.p99}` : '—'} |`,
    ),
  ].join('\n');
  process.stdout.write(`${table}\n`);
  writeFileSync(`${resultsDir}${name}.json`, `${JSON.stringify({ machine, figures }, null, 2)}\n`);
  writeFileSync(
    `${resultsDir}${name}.md`,
    `# ${name} benchmark\n\nautocannon, 32 connections, 10 s per target; ${machine.cpus} × ${machine.cpu}, Node ${machine.node}, ${machine.date}.\n\n${table}\n`,
  );
}
