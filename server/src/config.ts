import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Joi from 'joi';
import type { WebhookSettings } from './webhooks/service.js';

/** Everything `predgate serve` is told, after defaults. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Keys file, generated key, embedded catalog and archive live here. */
  dataDir: string;
  /** Deployment manifest path; absent means every installed adapter. */
  manifest?: string;
  /** Plain API keys from the environment; hashed as soon as they are read. */
  apiKeys: string[];
  /** Catalog store; the embedded store when absent. */
  catalogUrl?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Requests per key per window; `requests: 0` turns the limit off. */
  rateLimit: { requests: number; windowSeconds: number };
  /** Authenticated adapter instances kept for reuse, one per set of credentials. */
  credentialPool: { max: number; idleMinutes: number };
  /** Longest a pass-through read may take, venue retries included, before it is answered with EXCHANGE_NOT_AVAILABLE; writes are not cut short. */
  requestBudgetSeconds: number;
  /** Ingestion: a full sweep of each venue every `intervalSeconds`; pass-through calls are catalog-served while the last sweep is younger than `freshForSeconds`. */
  /** `leaseSeconds`: with a MongoDB catalog, how long a replica's sweep lease lasts unrenewed (30 by default). */
  catalog: { intervalSeconds: number; freshForSeconds: number; concurrency: number; pageSize: number; leaseSeconds?: number };
  /** The Polymarket order-book archive (in `dataDir/archive`); `record: true` records inside `predgate serve`. */
  archive: { record: boolean; tokensPerConnection: number; refreshSeconds: number; flushMs: number; url?: string };
  /** `/ws` and the HTTP watch fallback: timeouts, heartbeats and the bounds of each client's buffer. */
  streaming: StreamingConfig;
  /** `/mcp`: `trading: true` also offers the methods that need venue credentials (accounts, orders) as tools. */
  mcp: { trading: boolean };
  /** Webhook deliveries: the SSRF guard's exceptions, bounds, timeouts and the retry schedule (see the README). */
  webhooks: WebhookSettings & { signingKey?: string };
}

export interface StreamingConfig {
  /** A subscription without data this long gets a retryable error frame (again each period it stays silent). */
  dataTimeoutMs: number;
  /** The gateway pings each socket this often and drops one that did not answer the previous ping. */
  heartbeatMs: number;
  /** Client frames above this get an error frame; above `maxMessageBytes` the socket is closed (1009). */
  maxFrameBytes: number;
  maxMessageBytes: number;
  /** Symbols one socket may watch at once. */
  maxSymbols: number;
  /** Symbols one API key may watch at once, over all its sockets and HTTP watches (each holds at most one upstream). */
  maxWatchesPerKey: number;
  /** Unsent bytes a socket may hold before frames wait in its bounded outbox. */
  highWaterBytes: number;
  /** Frames that may wait per client (a waiting book is replaced by a newer one); one more disconnects it. */
  maxQueuedFrames: number;
  /** A client behind for this long is disconnected (code 1013) with the reason. */
  slowConsumerMs: number;
  /** HTTP fallback: longest wait for the next update, and how long an unused watch lives. */
  httpWaitMs: number;
  httpIdleMs: number;
}

/** Environment variables operators and scripts rely on; keep the names stable. */
export const environmentNames = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'PREDGATE_DATA_DIR',
  manifest: 'PREDGATE_MANIFEST',
  apiKeys: 'PREDGATE_API_KEYS',
  catalogUrl: 'PREDGATE_CATALOG_URL',
  logLevel: 'LOG_LEVEL',
} as const;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const configSchema = Joi.object<ServerConfig, true>({
  port: Joi.number().port().default(3847),
  host: Joi.string().hostname().default('127.0.0.1'),
  dataDir: Joi.string().default('.predgate'),
  manifest: Joi.string(),
  apiKeys: Joi.array().items(Joi.string().min(16).message('API keys must be at least 16 characters')).default([]),
  catalogUrl: Joi.string().uri({ scheme: ['mongodb', 'mongodb+srv'] }),
  logLevel: Joi.string()
    .valid(...logLevels)
    .default('info'),
  rateLimit: Joi.object({
    requests: Joi.number().integer().min(0).default(6_000),
    windowSeconds: Joi.number().integer().min(1).default(60),
  }).default(),
  credentialPool: Joi.object({
    max: Joi.number().integer().min(1).default(1_000),
    idleMinutes: Joi.number().min(1).default(30),
  }).default(),
  requestBudgetSeconds: Joi.number().min(0.1).max(300).default(20),
  catalog: Joi.object({
    intervalSeconds: Joi.number().min(1).default(60),
    freshForSeconds: Joi.number().min(0).default(120),
    concurrency: Joi.number().integer().min(1).default(2),
    pageSize: Joi.number().integer().min(1).max(1_000).default(200),
    // Gateways sharing a MongoDB catalog: a dead sweeper's venues are taken over after this long.
    leaseSeconds: Joi.number().min(1).max(3_600).default(30),
  }).default(),
  archive: Joi.object({
    record: Joi.boolean().default(false),
    tokensPerConnection: Joi.number().integer().min(1).max(750).default(500),
    refreshSeconds: Joi.number().min(1).default(60),
    flushMs: Joi.number().integer().min(1).default(200),
    url: Joi.string().uri({ scheme: ['ws', 'wss'] }),
  }).default(),
  streaming: Joi.object({
    dataTimeoutMs: Joi.number().integer().min(10).default(30_000),
    heartbeatMs: Joi.number().integer().min(10).default(30_000),
    maxFrameBytes: Joi.number()
      .integer()
      .min(256)
      .default(64 * 1024),
    maxMessageBytes: Joi.number()
      .integer()
      .min(256)
      .default(1024 * 1024),
    maxSymbols: Joi.number().integer().min(1).default(1_000),
    maxWatchesPerKey: Joi.number().integer().min(1).default(2_000),
    highWaterBytes: Joi.number()
      .integer()
      .min(1)
      .default(1024 * 1024),
    maxQueuedFrames: Joi.number().integer().min(1).default(1_000),
    slowConsumerMs: Joi.number().integer().min(10).default(10_000),
    httpWaitMs: Joi.number().integer().min(10).default(20_000),
    httpIdleMs: Joi.number().integer().min(10).default(60_000),
  }).default(),
  mcp: Joi.object({
    trading: Joi.boolean().default(false),
  }).default(),
  webhooks: Joi.object({
    allowHttp: Joi.boolean().default(false),
    allowedNetworks: Joi.array()
      .items(Joi.string().ip({ cidr: 'optional' }))
      .max(100)
      .default([]),
    maxPerKey: Joi.number().integer().min(1).max(1_000).default(25),
    timeoutMs: Joi.number().integer().min(10).max(60_000).default(5_000),
    concurrency: Joi.number().integer().min(1).max(1_000).default(64),
    firstRetryMs: Joi.number().integer().min(1).default(5_000),
    maxRetryMs: Joi.number().integer().min(1).default(3_600_000),
    retryForHours: Joi.number()
      .min(0)
      .max(24 * 7)
      .default(24),
    signingKey: Joi.string().min(32),
  }).default(),
}).unknown(false);

export interface ConfigSources {
  env?: NodeJS.ProcessEnv;
  /** JSON config file; its fields are those of ServerConfig. Environment variables win over it. */
  file?: string;
  /** Base for relative paths. */
  cwd?: string;
}

/**
 * Reads the configuration file and the environment, applies defaults and
 * validates the result. Errors name the environment variable or the file
 * field at fault.
 */
export function loadConfig(sources: ConfigSources = {}): ServerConfig {
  const env = sources.env ?? process.env;
  const cwd = sources.cwd ?? process.cwd();
  const fromFile = sources.file ? readConfigFile(resolve(cwd, sources.file)) : {};
  const fromEnv: Record<string, unknown> = {};
  const origin: Record<string, string> = {};
  for (const [field, name] of Object.entries(environmentNames)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    fromEnv[field] =
      field === 'apiKeys'
        ? value
            .split(',')
            .map((key) => key.trim())
            .filter(Boolean)
        : value;
    origin[field] = name;
  }
  const { error, value } = configSchema.validate({ ...fromFile, ...fromEnv }, { abortEarly: true, errors: { label: false } });
  if (error) {
    const [detail] = error.details;
    const field = String(detail?.path[0] ?? '');
    const where = origin[field] ? `environment variable ${origin[field]}` : `${sources.file ?? 'configuration'} field "${detail?.path.join('.')}"`;
    throw new ConfigError(`Invalid ${where}: ${detail?.message ?? error.message}`);
  }
  const config = value as ServerConfig;
  return {
    ...config,
    dataDir: resolve(cwd, config.dataDir),
    ...(config.manifest ? { manifest: resolve(cwd, config.manifest) } : {}),
  };
}

function readConfigFile(path: string): Record<string, unknown> {
  if (!existsSync(path)) throw new ConfigError(`Configuration file not found: ${path}`);
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`Configuration file ${path} is not valid: ${(error as Error).message}`);
  }
}
