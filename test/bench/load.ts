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

/**
 * autocannon with the settings every Predgate benchmark uses: 32 connections
 * for 10 s (one connection measures a query's own latency, without queueing),
 * after the same load unmeasured (`BENCH_WARMUP_SECONDS`, 2 s by default),
 * so every server (the gateway and each baseline alike) is measured with its
 * code compiled and its caches warm, as a client meets a server that has been
 * up. Percentiles come from every
 * response's own time (autocannon's summary rounds latencies to whole
 * milliseconds and has no p95).
 */
export async function load(target: LoadTarget, seconds = Number(process.env.BENCH_SECONDS ?? 10), connections = 32): Promise<LoadFigures> {
  if (warmupSeconds > 0) await measure(target, warmupSeconds, connections);
  return measure(target, seconds, connections);
}

function measure(target: LoadTarget, seconds: number, connections: number): Promise<LoadFigures> {
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
      (error, result) => {
        if (error) return reject(error);
        samples.sort((a, b) => a - b);
        const percentile = (p: number) => round(samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)] ?? 0);
        resolve({
          name: target.name,
          requestsPerSecond: Math.round(result.requests.average),
          p50: percentile(50),
          p95: percentile(95),
          p97_5: percentile(97.5),
          p99: percentile(99),
          requests: samples.length,
          non2xx: result.non2xx,
          errors: result.errors,
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, milliseconds: number) => samples.push(milliseconds));
  });
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
