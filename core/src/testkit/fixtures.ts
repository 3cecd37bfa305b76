import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { MockAgent } from 'undici';
import { isPredgateError } from '../errors.js';
import type { PredgateError } from '../errors.js';
import { withDriftSink } from '../kit/drift.js';
import { createHttpClientFactory } from '../http/venue-http-client.js';
import type { HttpClientFactory } from '../http/venue-http-client.js';
import type { VenueAdapter } from '../methods/adapter.js';
import { adapterMethod, ownMethodNames } from '../methods/capabilities.js';
import { coreMethods } from '../methods/method-list.js';
import { createMethodRegistry } from '../methods/registry.js';
import type { MethodList } from '../methods/registry.js';
import type { Credentials } from '../model/index.js';
import { fixedClock } from '../runtime.js';
import type { Clock } from '../runtime.js';
import type { TestFunction } from './conformance.js';
import { checkResult } from './invariants.js';

/**
 * Static adapter tests in the manner of CCXT's: a fixture is one unified call
 * and the venue HTTP traffic it causes. `requests/` fixtures pin down the
 * exact requests (method, URL and query, body, the headers that matter);
 * `responses/` fixtures pin down what recorded venue answers become (the
 * unified result, or the unified error). Both use the same case format:
 *
 * {
 *   "title": "keyword search goes to public-search",
 *   "method": "fetchEvents",
 *   "args": [{ "query": "bitcoin", "limit": 1 }],          // as a client POSTs them
 *   "credentials": { ... },                                  // optional
 *   "now": 1785734468581,                                    // optional clock, Unix ms
 *   "exchanges": [{
 *     "request": { "method": "GET", "url": "https://host/path?q=1", "headers": { "poly_api_key": "k" }, "body": { ... } },
 *     "response": { "status": 200, "headers": { ... }, "body": { ... } | "bodyFile": "../payloads/x.json" }
 *   }],
 *   "result": { ... } | "match": { ... } | "error": { "code": "NOT_FOUND", "message": "..." },
 *   "drift": [{ "field": "markets.1.volume", "item": "KX-B" }]              // optional
 * }
 *
 * A file holds one case or an array of them. Query parameters compare without
 * regard to order; only the headers listed are compared. Anywhere in an
 * expected value, `{"$matches": "<regex>"}` matches a string by pattern and
 * `{"$any": true}` matches any value, for signatures, salts and timestamps;
 * `{"$absent": true}` requires the member to be missing (a price that is unknown, not 0).
 * `drift` lists the items the call must leave out as unreadable (each report's
 * detail must contain the entry); a call that leaves out an item its fixture
 * does not list fails.
 */
export interface FixtureExchange {
  request: {
    method: string;
    url: string;
    headers?: Record<string, unknown>;
    body?: unknown;
  };
  response: {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
    /** Path of a JSON file holding the body, relative to the fixture file. */
    bodyFile?: string;
  };
}

export interface FixtureCase {
  title: string;
  method: string;
  args: unknown[];
  credentials?: Credentials;
  now?: number;
  exchanges: FixtureExchange[];
  /** The exact unified result. */
  result?: unknown;
  /** A subset the unified result must contain. */
  match?: unknown;
  /** The unified error the call must fail with. */
  error?: { code: string; message?: string; detail?: Record<string, unknown> };
  /** The drift reports the call must make (subsets of their `detail`), in order: items left out as unreadable. */
  drift?: Array<Record<string, unknown>>;
  /** File the case came from, for messages. */
  file: string;
  kind: 'request' | 'response';
}

export interface AdapterFactoryContext {
  http: HttpClientFactory;
  clock: Clock;
  credentials?: Credentials;
}

export interface FixtureSuiteOptions {
  name: string;
  /** Folder holding `requests/` and `responses/`. */
  dir: string;
  /** Makes the adapter under test; its HTTP clients must come from `context.http`. */
  create: (context: AdapterFactoryContext) => VenueAdapter;
  /** Clock for cases that do not set `now`. */
  now?: number;
  list?: MethodList;
}

/** Reads every case under `dir/requests` and `dir/responses`. */
export function loadFixtureCases(dir: string): FixtureCase[] {
  const cases: FixtureCase[] = [];
  for (const kind of ['request', 'response'] as const) {
    const folder = join(dir, `${kind}s`);
    for (const file of jsonFiles(folder)) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      for (const entry of Array.isArray(parsed) ? parsed : [parsed]) {
        const fixture = { ...(entry as FixtureCase), file: relative(dir, file), kind };
        fixture.exchanges = fixture.exchanges.map((exchange) => withBody(exchange, dirname(file)));
        cases.push(fixture);
      }
    }
  }
  return cases;
}

/**
 * Registers one test per fixture case, plus one that every method the adapter
 * claims has both request and response fixtures. Results of successful calls
 * are also checked against the unified schemas and invariants.
 */
export function runFixtureSuite(test: TestFunction, options: FixtureSuiteOptions): void {
  const list: MethodList = options.list ?? coreMethods;
  const cases = loadFixtureCases(options.dir);
  const registry = createMethodRegistry(list);

  test(`${options.name}: every claimed method has request and response fixtures`, async () => {
    const probe = options.create({ http: createHttpClientFactory({ dispatcher: new MockAgent() }), clock: fixedClock(options.now ?? Date.now()) });
    const missing: string[] = [];
    // Methods core derives for the adapter make no venue calls of their own: they need no fixtures.
    // Streaming methods read a socket, not HTTP: the conformance suite checks their payloads.
    for (const name of ownMethodNames(probe, list).filter((method) => !list[method]!.stream)) {
      for (const kind of ['request', 'response'] as const) {
        if (!cases.some((fixture) => fixture.method === name && fixture.kind === kind)) missing.push(`${name} (${kind})`);
      }
    }
    assert.deepEqual(missing, [], `${options.name}: methods without fixtures: ${missing.join(', ')}`);
  });

  for (const fixture of cases) {
    test(`${options.name}: ${fixture.kind} ${fixture.method}: ${fixture.title}`, async () => {
      const routed = registry.get(fixture.method);
      assert.ok(routed, `${fixture.file}: ${fixture.method} is not a core method`);
      const { args } = routed.fromBody({ args: fixture.args });
      const outcome = await replay(
        fixture,
        (http, clock) => options.create({ http, clock, ...(fixture.credentials ? { credentials: fixture.credentials } : {}) }),
        fixture.now ?? options.now,
        (adapter) => {
          const call = adapterMethod(adapter, fixture.method);
          assert.ok(call, `${fixture.file}: the adapter does not implement ${fixture.method}`);
          return call(...args);
        },
      );
      checkOutcome(fixture, outcome, list);
    });
  }
}

/**
 * A MockAgent that answers the fixtures' requests in any order, for tests that
 * run a whole gateway against recorded venue traffic.
 */
export function replayAgent(cases: readonly FixtureCase[]): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  // Where several cases record the same request, a healthy venue's answer is the one replayed: successes are registered first.
  const exchanges = cases.flatMap((fixture) => fixture.exchanges);
  const ordered = [...exchanges.filter(({ response }) => response.status < 400), ...exchanges.filter(({ response }) => response.status >= 400)];
  for (const { request, response } of ordered) {
    const url = new URL(request.url);
    agent
      .get(url.origin)
      // Venues whose reads are all POSTs to one path (JSON-RPC, Hyperliquid's `info`) are told apart by body.
      .intercept({
        method: request.method,
        path: (path) => samePathAndQuery(path, url),
        ...(request.body === undefined ? {} : { body: (body) => sameBody(request.body, body) }),
      })
      .reply(response.status, serialiseBody(response.body), { headers: response.headers ?? {} })
      .persist();
  }
  return agent;
}

interface Outcome {
  result?: unknown;
  error?: unknown;
  problems: string[];
  drift: PredgateError[];
}

async function replay(
  fixture: FixtureCase,
  create: (http: HttpClientFactory, clock: Clock) => VenueAdapter,
  now: number | undefined,
  call: (adapter: VenueAdapter) => unknown,
): Promise<Outcome> {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pending = [...fixture.exchanges];
  const problems: string[] = [];
  const origins = new Set(fixture.exchanges.map((exchange) => new URL(exchange.request.url).origin));
  for (const origin of origins) {
    agent
      .get(origin)
      .intercept({ method: () => true, path: () => true })
      .reply((options) => {
        const seen = { method: options.method, url: new URL(options.path, origin), headers: headerRecord(options.headers), body: options.body };
        const samePath = (exchange: FixtureExchange) =>
          exchange.request.method === seen.method && samePathAndQuery(`${seen.url.pathname}${seen.url.search}`, new URL(exchange.request.url));
        // Several requests to one path (concurrent POST reads) pair by body; a body that matches none is reported against its path.
        const bodyIndex = pending.findIndex(
          (exchange) => samePath(exchange) && (exchange.request.body === undefined || sameBody(exchange.request.body, seen.body)),
        );
        const index = bodyIndex === -1 ? pending.findIndex(samePath) : bodyIndex;
        if (index === -1) {
          problems.push(`unexpected request ${seen.method} ${seen.url}\n    expected one of:\n${describePending(pending)}`);
          return { statusCode: 599, data: 'unexpected request' };
        }
        const [exchange] = pending.splice(index, 1) as [FixtureExchange];
        problems.push(...requestMismatches(exchange, seen));
        return {
          statusCode: exchange.response.status,
          data: serialiseBody(exchange.response.body),
          responseOptions: { headers: exchange.response.headers ?? {} },
        };
      })
      .persist();
  }
  // Recorded failures are replayed at once: the retry delays are the client's business, not the fixture's.
  const http = createHttpClientFactory({ dispatcher: agent, retry: { minDelayMs: 1, maxDelayMs: 1 } });
  const adapter = create(http, fixedClock(now ?? Date.now()));
  const outcome: Outcome = { problems, drift: [] };
  try {
    outcome.result = await withDriftSink(
      (report) => outcome.drift.push(report),
      async () => call(adapter),
    );
  } catch (error) {
    outcome.error = error;
  } finally {
    await adapter.close?.();
    await http.close();
    await agent.close();
  }
  for (const exchange of pending) problems.push(`expected request not made: ${exchange.request.method} ${exchange.request.url}`);
  return outcome;
}

function checkOutcome(fixture: FixtureCase, outcome: Outcome, list: MethodList): void {
  const where = `${fixture.file} (${fixture.title})`;
  if (outcome.problems.length > 0) {
    const cause = outcome.error ? `\n  the call failed with: ${describeError(outcome.error)}` : '';
    assert.fail(`${where}:\n  - ${outcome.problems.join('\n  - ')}${cause}`);
  }
  const drift = outcome.drift.map((report) => report.detail ?? {});
  const expectedDrift = fixture.drift ?? [];
  if (drift.length !== expectedDrift.length || !expectedDrift.every((expected, index) => matches(drift[index], expected))) {
    assert.fail(`${where}: items left out as unreadable\n  expected ${JSON.stringify(expectedDrift)}\n  got      ${JSON.stringify(drift)}`);
  }
  if (fixture.error) {
    assert.ok(outcome.error !== undefined, `${where}: expected ${fixture.error.code}, but the call succeeded`);
    assert.ok(isPredgateError(outcome.error), `${where}: expected ${fixture.error.code}, got ${describeError(outcome.error)}`);
    const actual = { code: outcome.error.code, message: outcome.error.message, detail: outcome.error.detail };
    assert.ok(matches(actual, fixture.error), `${where}: wrong error\n  expected ${JSON.stringify(fixture.error)}\n  got      ${JSON.stringify(actual)}`);
    return;
  }
  if (outcome.error !== undefined) assert.fail(`${where}: the call failed with ${describeError(outcome.error)}`);
  const violations = checkResult(fixture.method, outcome.result, list);
  assert.deepEqual(violations, [], `${where}: the result breaks the unified model:\n  - ${violations.join('\n  - ')}`);
  const plain = JSON.parse(JSON.stringify(outcome.result ?? null)) as unknown;
  if (fixture.result !== undefined && !matches(plain, fixture.result, true)) {
    assert.deepStrictEqual(plain, fixture.result, `${where}: the unified result differs from the fixture`);
  }
  if (fixture.match !== undefined && !matches(plain, fixture.match)) {
    assert.deepStrictEqual(subsetView(plain, fixture.match), fixture.match, `${where}: the unified result does not contain the fixture's subset`);
  }
}

function requestMismatches(exchange: FixtureExchange, seen: { method: string; url: URL; headers: Record<string, string>; body: unknown }): string[] {
  const problems: string[] = [];
  const label = `${exchange.request.method} ${exchange.request.url}`;
  for (const [name, expected] of Object.entries(exchange.request.headers ?? {})) {
    const actual = seen.headers[name.toLowerCase()];
    if (!matches(actual, expected)) problems.push(`${label}: header ${name} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }
  if (exchange.request.body !== undefined) {
    const text = bodyText(seen.body);
    if (!sameBody(exchange.request.body, seen.body)) {
      problems.push(`${label}: body differs\n      expected ${JSON.stringify(exchange.request.body)}\n      got      ${text}`);
    }
  }
  return problems;
}

/** Deep comparison with `$matches`/`$any`; `exact` also requires objects to have no extra members. */
function matches(actual: unknown, expected: unknown, exact = false): boolean {
  if (isMatcher(expected)) {
    if ('$any' in expected) return actual !== undefined;
    if ('$absent' in expected) return actual === undefined;
    return typeof actual === 'string' && new RegExp(String(expected.$matches)).test(actual);
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, index) => matches(actual[index], item, exact));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    const record = actual as Record<string, unknown>;
    const keys = Object.keys(expected);
    if (exact && Object.keys(record).some((key) => !keys.includes(key))) return false;
    return keys.every((key) => matches(record[key], (expected as Record<string, unknown>)[key], exact));
  }
  return Object.is(actual, expected);
}

/** The part of `actual` a subset expectation looks at, so a failed match shows a focused diff. */
function subsetView(actual: unknown, expected: unknown): unknown {
  if (isMatcher(expected) && matches(actual, expected)) return expected;
  if (Array.isArray(expected) && Array.isArray(actual)) return actual.slice(0, expected.length).map((item, index) => subsetView(item, expected[index]));
  if (typeof expected === 'object' && expected !== null && !isMatcher(expected) && typeof actual === 'object' && actual !== null) {
    return Object.fromEntries(
      Object.keys(expected).map((key) => [key, subsetView((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key])]),
    );
  }
  return actual;
}

function isMatcher(value: unknown): value is { $matches?: string; $any?: boolean; $absent?: boolean } {
  return typeof value === 'object' && value !== null && ('$matches' in value || '$any' in value || '$absent' in value);
}

function samePathAndQuery(path: string, expected: URL): boolean {
  const actual = new URL(path, expected.origin);
  if (actual.pathname !== expected.pathname) return false;
  const sorted = (params: URLSearchParams) =>
    [...params.entries()]
      .map(([key, value]) => `${key}=${value}`)
      .sort()
      .join('&');
  return sorted(actual.searchParams) === sorted(expected.searchParams);
}

function bodyText(body: unknown): string {
  return typeof body === 'string' ? body : body === undefined || body === null ? '' : String(body);
}

/** A recorded body (JSON, with the fixture's matchers, or exact text) against the body sent. */
function sameBody(expected: unknown, sent: unknown): boolean {
  const text = bodyText(sent);
  return matches(typeof expected === 'string' ? text : parseJson(text), expected, true);
}

function describePending(pending: readonly FixtureExchange[]): string {
  if (pending.length === 0) return '      (none left)';
  return pending.map((exchange) => `      ${exchange.request.method} ${exchange.request.url}`).join('\n');
}

function describeError(error: unknown): string {
  if (isPredgateError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function headerRecord(headers: unknown): Record<string, string> {
  const record: Record<string, string> = {};
  if (Array.isArray(headers)) {
    for (let index = 0; index < headers.length; index += 2) record[String(headers[index]).toLowerCase()] = String(headers[index + 1]);
  } else if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers)) record[name.toLowerCase()] = String(value);
  }
  return record;
}

function withBody(exchange: FixtureExchange, folder: string): FixtureExchange {
  if (exchange.response.bodyFile === undefined) return exchange;
  const body = JSON.parse(readFileSync(resolve(folder, exchange.response.bodyFile), 'utf8')) as unknown;
  return { ...exchange, response: { ...exchange.response, body } };
}

function serialiseBody(body: unknown): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function jsonFiles(folder: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder).sort();
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return entry.endsWith('.json') ? [path] : [];
  });
}
