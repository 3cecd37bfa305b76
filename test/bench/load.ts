import autocannon from 'autocannon';

export interface LoadTarget {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadFigures {
  name: string;
  requestsPerSecond: number;
  /** Latencies in milliseconds. */
  p50: number;
  p95: number;
  p97_5: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** Unmeasured load before each measured one: see `load`. */
export const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/** Rounds a side-by-side comparison is measured in: see `loadInTurns`. */
export const turnRounds = Number(process.env.BENCH_ROUNDS ?? 2);

/**
 * autocannon with the settings every Predgate benchmark uses: 32 connections
 * for 10 s (one connection measures a query's own latency, without queueing),
 * after the same load unmeasured (`BENCH_WARMUP_SECONDS`, 2 s by default),
 * so every server (the gateway and each baseline alike) is measured with its
 * code compiled and its caches warm, as a client meets a server that has been
 * up. Percentiles come from every
 * response's own time (autocannon's summary rounds latencies to whole
 * milliseconds and has no p95).
 *
 * autocannon 9 decodes every response body into a string, read or not. The
 * load shares this machine's two cores with the servers it measures, and
 * decoding a compressed answer of 28 KB took more CPU than serving it (a bare
 * `node:http` server sending one: about 2,500 requests/s with the decoding,
 * 9,000 to 22,000 without). `test/patches/autocannon@9.0.0.patch` keeps the
 * bodies only when something reads them, and these loads read none.
 */
export async function load(target: LoadTarget, seconds = Number(process.env.BENCH_SECONDS ?? 10), connections = 32): Promise<LoadFigures> {
  const [figures] = await loadInTurns([{ target, seconds, connections }], 1);
  return figures!;
}

/** One target of `loadInTurns`: its whole measured time, split across the rounds. */
export interface TurnTarget {
  target: LoadTarget;
  seconds?: number;
  connections?: number;
}

/**
 * Several targets measured in turn, round after round: each round gives
 * each target its share of its time (after its warm-up), and a target's
 * figures pool every response of its rounds. On a shared machine whose speed
 * drifts over a minute, targets measured one after the other in one block
 * each would each meet a different machine; taken in turns they meet the
 * same drift, so the ratios between them hold.
 */
export async function loadInTurns(targets: readonly TurnTarget[], rounds = turnRounds): Promise<LoadFigures[]> {
  const pooled = targets.map(() => ({ samples: [] as number[], seconds: 0, non2xx: 0, errors: 0 }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, { target, seconds = Number(process.env.BENCH_SECONDS ?? 10), connections = 32 }] of targets.entries()) {
      if (warmupSeconds > 0) await measure(target, warmupSeconds, connections);
      const share = seconds / rounds;
      const result = await measure(target, share, connections);
      const into = pooled[index]!;
      for (const sample of result.samples) into.samples.push(sample);
      into.seconds += share;
      into.non2xx += result.non2xx;
      into.errors += result.errors;
    }
  }
  return targets.map(({ target }, index) => summary(target.name, pooled[index]!));
}

interface Measured {
  samples: number[];
  non2xx: number;
  errors: number;
}

function measure(target: LoadTarget, seconds: number, connections: number): Promise<Measured> {
  const samples: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method ?? 'GET',
        body: target.body,
        headers: { 'content-type': 'application/json', ...target.headers },
        connections,
        duration: seconds,
      },
      (error, result) => (error ? reject(error) : resolve({ samples, non2xx: result.non2xx, errors: result.errors })),
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, milliseconds: number) => samples.push(milliseconds));
  });
}

function summary(name: string, { samples, seconds, non2xx, errors }: Measured & { seconds: number }): LoadFigures {
  samples.sort((a, b) => a - b);
  const percentile = (p: number) => round(samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)] ?? 0);
  return {
    name,
    requestsPerSecond: Math.round(samples.length / seconds),
    p50: percentile(50),
    p95: percentile(95),
    p97_5: percentile(97.5),
    p99: percentile(99),
    requests: samples.length,
    non2xx,
    errors,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
