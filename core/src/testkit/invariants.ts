import type { Event, Market, Order, OrderBook, OrderLevel, PriceCandle } from '../model/index.js';
import { coreMethods } from '../methods/method-list.js';
import type { MethodList } from '../methods/registry.js';

/**
 * Checks a method's result against its declared schema and the invariants a
 * schema cannot state. Each violation names the field it is about:
 * `data.bids[2].price: must be less than or equal to 1 (got 1.5)`.
 */
export function checkResult(method: string, value: unknown, list: MethodList = coreMethods): string[] {
  const declaration = list[method];
  if (!declaration) return [`${method} is not a declared method`];
  const violations = [...nonFiniteOrUndefined(value, 'data')];
  const { error } = declaration.result.schema.validate(value, { convert: false, abortEarly: false, errors: { label: false } });
  for (const detail of error?.details ?? []) {
    violations.push(`${formatPath(['data', ...detail.path])}: ${detail.message}${describeValue(detail.context?.value)}`);
  }
  if (violations.length === 0) violations.push(...semanticViolations(value));
  return violations;
}

/** The invariants a schema cannot say, walked over whatever shape the result has. */
function semanticViolations(value: unknown): string[] {
  const found: string[] = [];
  visit(value, 'data', (node, path) => {
    if (isOrderBook(node)) found.push(...bookViolations(node, path));
    if (isEvent(node)) found.push(...eventViolations(node, path));
    if (isMarket(node)) found.push(...marketViolations(node, path));
    if (isCandle(node)) found.push(...candleViolations(node, path));
    if (isOrder(node)) found.push(...orderViolations(node, path));
  });
  return found;
}

function bookViolations(book: OrderBook, path: string): string[] {
  const found: string[] = [];
  const ordered = (levels: OrderLevel[], side: 'bids' | 'asks') => {
    for (let index = 1; index < levels.length; index += 1) {
      const previous = levels[index - 1]!.price;
      const current = levels[index]!.price;
      const wrong = side === 'bids' ? current > previous : current < previous;
      if (wrong) {
        found.push(`${path}.${side}[${index}].price: ${side} must be ${side === 'bids' ? 'descending' : 'ascending'} (got ${current} after ${previous})`);
        return;
      }
    }
  };
  ordered(book.bids, 'bids');
  ordered(book.asks, 'asks');
  if (Number.isNaN(Date.parse(book.datetime)) || Date.parse(book.datetime) !== book.timestamp) {
    found.push(`${path}.datetime: must be the ISO form of timestamp ${book.timestamp} (got ${book.datetime})`);
  }
  return found;
}

function eventViolations(event: Event, path: string): string[] {
  return event.markets.flatMap((market, index) =>
    market.eventId !== undefined && market.eventId !== event.id
      ? [`${path}.markets[${index}].eventId: must be the event's id "${event.id}" (got "${market.eventId}")`]
      : [],
  );
}

function marketViolations(market: Market, path: string): string[] {
  const found: string[] = [];
  const ids = new Set(market.outcomes.map((outcome) => outcome.outcomeId));
  for (const name of ['yes', 'no', 'up', 'down'] as const) {
    const reference = market[name];
    if (reference === undefined) continue;
    if (market.outcomes.length !== 2) {
      found.push(`${path}.${name}: only two-outcome markets carry convenience references (this one has ${market.outcomes.length} outcomes)`);
    } else if (!ids.has(reference.outcomeId)) {
      found.push(`${path}.${name}: must be one of the market's outcomes (got outcomeId "${reference.outcomeId}")`);
    }
  }
  if (market.outcomes.length === 2 && (market.yes === undefined || market.no === undefined)) {
    found.push(`${path}.yes: a two-outcome market must carry yes and no`);
  }
  if (market.yes && market.no && market.yes.outcomeId === market.no.outcomeId) {
    found.push(`${path}.no: must differ from yes`);
  }
  market.outcomes.forEach((outcome, index) => {
    if (outcome.marketId !== undefined && outcome.marketId !== market.marketId) {
      found.push(`${path}.outcomes[${index}].marketId: must be "${market.marketId}" (got "${outcome.marketId}")`);
    }
  });
  return found;
}

function candleViolations(candle: PriceCandle, path: string): string[] {
  const { open, high, low, close } = candle;
  if (low > Math.min(open, close) || high < Math.max(open, close)) {
    return [`${path}: low <= open, close <= high must hold (got open ${open}, high ${high}, low ${low}, close ${close})`];
  }
  return [];
}

function orderViolations(order: Order, path: string): string[] {
  if (order.filled + order.remaining > order.amount + 1e-9) {
    return [`${path}.remaining: filled + remaining must not exceed amount (got ${order.filled} + ${order.remaining} > ${order.amount})`];
  }
  return [];
}

function nonFiniteOrUndefined(value: unknown, path: string): string[] {
  const found: string[] = [];
  visit(value, path, (node, at) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    for (const [key, member] of Object.entries(node)) {
      if (member === undefined) found.push(`${at}.${key}: is present but undefined`);
      if (typeof member === 'number' && !Number.isFinite(member)) found.push(`${at}.${key}: must be a finite number (got ${member})`);
    }
  });
  return found;
}

function visit(value: unknown, path: string, onNode: (node: unknown, path: string) => void, depth = 0): void {
  if (depth > 12) return;
  onNode(value, path);
  if (Array.isArray(value)) {
    value.forEach((item, index) => visit(item, `${path}[${index}]`, onNode, depth + 1));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      // Venue payloads are free-form: their shape is the venue's business.
      if (key === 'sourceMetadata' || key === 'metadata' || key === 'raw') continue;
      visit(member, `${path}.${key}`, onNode, depth + 1);
    }
  }
}

function formatPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : `${text}.${part}`), '').slice(1);
}

function describeValue(value: unknown): string {
  if (value === undefined || typeof value === 'object') return '';
  return ` (got ${JSON.stringify(value)})`;
}

const has = (node: unknown, ...keys: string[]): node is Record<string, unknown> =>
  typeof node === 'object' && node !== null && !Array.isArray(node) && keys.every((key) => key in node);

const isOrderBook = (node: unknown): node is OrderBook => has(node, 'bids', 'asks', 'timestamp');
const isEvent = (node: unknown): node is Event => has(node, 'id', 'markets');
const isMarket = (node: unknown): node is Market => has(node, 'marketId', 'outcomes');
const isCandle = (node: unknown): node is PriceCandle => has(node, 'open', 'high', 'low', 'close');
const isOrder = (node: unknown): node is Order => has(node, 'filled', 'remaining', 'amount', 'status');
