import { request } from 'undici';
import WebSocket from 'ws';
import { gatewayNodeOptions, startServer } from './processes.js';

const apiKey = 'bench-key-0123456789abcdef';

export interface StreamFigures {
  subscribers: number;
  tickMs: number;
  seconds: number;
  upstreams: number;
  booksPerSecondUpstream: number;
  messagesPerSecond: number;
  expectedPerSecond: number;
  deliveredShare: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  bookBytes: number;
  serverMemory: {
    rssBeforeMiB: number;
    rssAfterMiB: number;
    heapBeforeMiB: number;
    heapAfterMiB: number;
    rssPerSubscriberKiB: number;
    heapPerSubscriberKiB: number;
  };
}

/**
 * Fan-out of one upstream book to many local subscribers: the gateway (its
 * own process) streams the mock venue's ticking book for one outcome to
 * SUBSCRIBERS `/ws` clients (this process), each subscribed to the same
 * outcome, so one upstream feeds them all. Figures: data frames delivered per
 * second over every client, delivery latency (receive time minus the book's
 * timestamp, both this machine's clock, ms resolution), and the server's
 * memory per subscriber.
 */
export async function benchStream(): Promise<{ summary: string; details: StreamFigures }> {
  const subscribers = Number(process.env.BENCH_SUBSCRIBERS ?? 1_000);
  const tickMs = Number(process.env.BENCH_TICK_MS ?? 50);
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const gateway = await startServer('stream-server.ts', [], { BENCH_API_KEY: apiKey, BENCH_TICK_MS: String(tickMs) }, gatewayNodeOptions);
  const base = `http://127.0.0.1:${gateway.port}`;
  const headers = { authorization: `Bearer ${apiKey}` };
  const sockets: WebSocket[] = [];
  try {
    const events = (await (await request(`${base}/api/mock/fetchEvents?limit=5`, { headers })).body.json()) as {
      data: Array<{ markets: Array<{ status: string; outcomes: Array<{ outcomeId: string }> }> }>;
    };
    const outcomeId = events.data.flatMap((event) => event.markets).find((market) => market.status === 'active')!.outcomes[0]!.outcomeId;
    const before = await memory(base, headers);

    let counting = false;
    let delivered = 0;
    let bookBytes = 0;
    const latencies: number[] = [];
    const url = `ws://127.0.0.1:${gateway.port}/ws?apiKey=${apiKey}`;
    for (let index = 0; index < subscribers; index += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, subscribers - index) }, (_, offset) => open(url, `s${index + offset}`, outcomeId)));
      sockets.push(...batch);
    }
    for (const socket of sockets) {
      socket.on('message', (data: Buffer) => {
        if (!counting) return;
        const text = data.toString();
        const stamp = /"timestamp":(\d+)/.exec(text);
        if (!stamp) return;
        delivered += 1;
        bookBytes = text.length;
        // Sampled: every 10th frame is enough for the percentiles and keeps the client side light.
        if (delivered % 10 === 0) latencies.push(Date.now() - Number(stamp[1]));
      });
    }
    await sleep(500);
    const upstreams = await metric(base, headers, 'predgate_stream_upstreams');
    counting = true;
    const started = Date.now();
    await sleep(seconds * 1000);
    counting = false;
    const elapsed = (Date.now() - started) / 1000;
    const after = await memory(base, headers);
    latencies.sort((a, b) => a - b);
    const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? Number.NaN;
    const expectedPerSecond = Math.round((subscribers * 1000) / tickMs);
    const messagesPerSecond = Math.round(delivered / elapsed);
    const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
    const figures: StreamFigures = {
      subscribers,
      tickMs,
      seconds: Math.round(elapsed * 10) / 10,
      upstreams,
      booksPerSecondUpstream: Math.round(1000 / tickMs),
      messagesPerSecond,
      expectedPerSecond,
      deliveredShare: Math.round((messagesPerSecond / expectedPerSecond) * 1000) / 1000,
      latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: latencies.at(-1) ?? Number.NaN },
      bookBytes,
      serverMemory: {
        rssBeforeMiB: mib(before.rss),
        rssAfterMiB: mib(after.rss),
        heapBeforeMiB: mib(before.heap),
        heapAfterMiB: mib(after.heap),
        rssPerSubscriberKiB: Math.round(((after.rss - before.rss) / subscribers / 1024) * 10) / 10,
        heapPerSubscriberKiB: Math.round(((after.heap - before.heap) / subscribers / 1024) * 10) / 10,
      },
    };
    const summary = [
      `One mock book ticking every ${tickMs} ms (${figures.booksPerSecondUpstream} books/s, ${bookBytes} bytes a frame), fanned out to ${subscribers} \`/ws\` subscribers over ${figures.upstreams} upstream, measured for ${figures.seconds} s after all had subscribed.`,
      '',
      '| subscribers | upstreams | frames/s delivered | frames/s expected | share | latency p50 ms | p90 ms | p99 ms | max ms | server RSS per subscriber | server heap per subscriber |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      `| ${subscribers} | ${figures.upstreams} | ${messagesPerSecond} | ${expectedPerSecond} | ${figures.deliveredShare} | ${figures.latencyMs.p50} | ${figures.latencyMs.p90} | ${figures.latencyMs.p99} | ${figures.latencyMs.max} | ${figures.serverMemory.rssPerSubscriberKiB} KiB | ${figures.serverMemory.heapPerSubscriberKiB} KiB |`,
      '',
      `Server memory: RSS ${figures.serverMemory.rssBeforeMiB} → ${figures.serverMemory.rssAfterMiB} MiB, heap ${figures.serverMemory.heapBeforeMiB} → ${figures.serverMemory.heapAfterMiB} MiB (before any socket, then with every subscriber streaming). Client and server share the machine's cores.`,
    ].join('\n');
    return { summary, details: figures };
  } finally {
    for (const socket of sockets) socket.terminate();
    await gateway.stop();
  }
}

function open(url: string, id: string, outcomeId: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('error', reject);
    socket.once('open', () => {
      socket.send(JSON.stringify({ id, action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomeId] }));
      resolve(socket);
    });
  });
}

async function memory(base: string, headers: Record<string, string>): Promise<{ rss: number; heap: number }> {
  return {
    rss: await metric(base, headers, 'process_resident_memory_bytes'),
    heap: await metric(base, headers, 'nodejs_heap_size_used_bytes'),
  };
}

async function metric(base: string, headers: Record<string, string>, name: string): Promise<number> {
  const text = await (await request(`${base}/metrics`, { headers })).body.text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? Number.NaN);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
