import { request } from 'undici';
import type { LoadTarget } from './load.js';
import { compared } from './gateway.bench.js';
import type { ComparedFigures } from './gateway.bench.js';
import { startServer } from './processes.js';

const apiKey = 'bench-key-0123456789abcdef';

export interface RouterBench {
  catalog: Record<string, number>;
  figures: ComparedFigures[];
}

/**
 * The Router over an embedded catalog of 100,000 mock events: five queries,
 * each against a bare node:http server answering the same bytes.
 */
export async function benchRouter(): Promise<RouterBench> {
  const gateway = await startServer('router-server.ts', [], { BENCH_API_KEY: apiKey }, ['--expose-gc', '--max-old-space-size=12288']);
  const base = `http://127.0.0.1:${gateway.port}`;
  const headers = { authorization: `Bearer ${apiKey}` };
  try {
    const catalog = JSON.parse(/stats (.*)/.exec(gateway.output)![1]!) as Record<string, number>;
    const [first] = (await json(`${base}/v0/events?limit=1`, headers)).data as Array<{ id: string }>;
    const word = await wordMatchingOnePercent(base, headers);
    const targets: LoadTarget[] = [
      { name: 'GET /v0/events', url: `${base}/v0/events`, headers },
      { name: `GET /v0/events?q=${word.word} (${word.share}% of events)`, url: `${base}/v0/events?q=${word.word}`, headers },
      { name: 'GET /v0/events?sourceExchange=mock&category=Economics', url: `${base}/v0/events?sourceExchange=mock&category=Economics`, headers },
      { name: 'GET /v0/events?offset=5000', url: `${base}/v0/events?offset=5000`, headers },
      { name: 'GET /v0/events/{id}', url: `${base}/v0/events/${first!.id}`, headers },
    ];
    const figures: ComparedFigures[] = [];
    for (const target of targets) figures.push(await compared(target));
    return { catalog, figures };
  } finally {
    await gateway.stop();
  }
}

/** The candidate word whose matches are closest to 1% of the open events. */
async function wordMatchingOnePercent(base: string, headers: Record<string, string>): Promise<{ word: string; share: number }> {
  const open = ((await json(`${base}/v0/events?limit=1`, headers)).meta as { total: number }).total;
  const candidates = ['freedonia', 'genovia', 'latveria', 'solana', 'cardano', 'otters', 'helio', 'starfall', 'mars sample', 'foldable'];
  let best = { word: candidates[0]!, share: Infinity };
  for (const word of candidates) {
    const total = ((await json(`${base}/v0/events?q=${encodeURIComponent(word)}&limit=1`, headers)).meta as { total: number }).total;
    const share = Math.round((total / open) * 10_000) / 100;
    if (Math.abs(share - 1) < Math.abs(best.share - 1)) best = { word, share };
  }
  return best;
}

async function json(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const answer = await request(url, { headers });
  return (await answer.body.json()) as Record<string, unknown>;
}
