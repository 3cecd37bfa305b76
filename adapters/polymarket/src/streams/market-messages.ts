import type { MarketEventType, MarketRow, PriceLevel } from './market-rows.js';

/** A market-channel frame we do not understand: named by field, never guessed around. */
export class UnreadableMessage extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`Polymarket market channel: ${field} ${message}`);
    this.name = 'UnreadableMessage';
  }
}

/** True for the keepalive answers, which are plain text and not JSON. */
export function isKeepalive(text: string): boolean {
  return text === 'PONG' || text === 'PING';
}

/** What one frame holds: the rows of every message we read, and an error for each message we could not. */
export interface MarketFrame {
  rows: MarketRow[];
  unreadable: UnreadableMessage[];
}

/**
 * Rows of one market-channel frame (one JSON object or an array of them).
 * Numbers arrive as strings and empty optionals as `""`: both are kept as
 * text, empties left out. `receivedAt` is the local time the frame arrived.
 * A message we cannot read is reported and left out; the frame's other
 * messages are kept. A frame that is not JSON at all throws.
 */
export function readMarketFrame(text: string, receivedAt: number): MarketFrame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UnreadableMessage('frame', 'is not JSON');
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const frame: MarketFrame = { rows: [], unreadable: [] };
  for (const message of messages) {
    const kept = frame.rows.length;
    try {
      readMessage(message, receivedAt, frame.rows);
    } catch (error) {
      if (!(error instanceof UnreadableMessage)) throw error;
      // The message's rows read before the error are left out with it.
      frame.rows.length = kept;
      frame.unreadable.push(error);
    }
  }
  return frame;
}

function readMessage(message: unknown, receivedAt: number, rows: MarketRow[]): void {
  if (!isObject(message)) throw new UnreadableMessage('message', 'is not an object');
  // Initial snapshots from some relays come without event_type; they carry bids/asks (or buys/sells).
  const eventType = optionalText(message, 'event_type') ?? ('bids' in message || 'buys' in message ? 'book' : undefined);
  const timestamp = venueTime(message, receivedAt);
  const market = optionalText(message, 'market') ?? '';
  // Each row names its type with the literal, not the frame's copy of it: a literal is one shared string whose
  // comparisons (the archive's per-row checks, the book's switch) are a pointer compare.
  switch (eventType) {
    case 'book': {
      const row: MarketRow = {
        receivedAt,
        timestamp,
        market,
        eventType: 'book',
        assetId: requiredText(message, 'asset_id'),
        bids: levels(message, 'bids', 'buys'),
        asks: levels(message, 'asks', 'sells'),
      };
      setDecimal(row, 'price', message, 'last_trade_price');
      setDecimal(row, 'newTickSize', message, 'tick_size');
      rows.push(row);
      return;
    }
    case 'price_change': {
      const changes = message.price_changes;
      if (!Array.isArray(changes)) throw new UnreadableMessage('price_change.price_changes', 'is not a list');
      for (const change of changes) {
        if (!isObject(change)) throw new UnreadableMessage('price_change.price_changes[]', 'is not an object');
        const row: MarketRow = {
          receivedAt,
          timestamp,
          market,
          eventType: 'price_change',
          assetId: requiredText(change, 'asset_id'),
          price: requiredDecimal(change, 'price'),
          size: requiredDecimal(change, 'size'),
          side: side(change),
        };
        setDecimal(row, 'bestBid', change, 'best_bid');
        setDecimal(row, 'bestAsk', change, 'best_ask');
        rows.push(row);
      }
      return;
    }
    case 'tick_size_change': {
      const row: MarketRow = { receivedAt, timestamp, market, eventType: 'tick_size_change', assetId: requiredText(message, 'asset_id') };
      setDecimal(row, 'oldTickSize', message, 'old_tick_size');
      row.newTickSize = requiredDecimal(message, 'new_tick_size');
      rows.push(row);
      return;
    }
    case 'last_trade_price': {
      const row: MarketRow = {
        receivedAt,
        timestamp,
        market,
        eventType: 'last_trade_price',
        assetId: requiredText(message, 'asset_id'),
        price: requiredDecimal(message, 'price'),
      };
      setDecimal(row, 'size', message, 'size');
      if (message.side !== undefined && message.side !== '') row.side = side(message);
      setDecimal(row, 'feeRateBps', message, 'fee_rate_bps');
      const hash = optionalText(message, 'transaction_hash');
      if (hash !== undefined) row.transactionHash = hash;
      rows.push(row);
      return;
    }
    case 'best_bid_ask': {
      const row: MarketRow = { receivedAt, timestamp, market, eventType: 'best_bid_ask', assetId: requiredText(message, 'asset_id') };
      setDecimal(row, 'bestBid', message, 'best_bid');
      setDecimal(row, 'bestAsk', message, 'best_ask');
      rows.push(row);
      return;
    }
    case 'new_market':
    case 'market_resolved': {
      // Lifecycle announcements name a market and, sometimes, its tokens.
      const assets = Array.isArray(message.assets_ids) ? message.assets_ids.filter((id): id is string => typeof id === 'string' && id !== '') : [];
      const eventTypeName: MarketEventType = eventType;
      if (assets.length === 0) rows.push({ receivedAt, timestamp, market, eventType: eventTypeName, assetId: optionalText(message, 'asset_id') ?? '' });
      for (const assetId of assets) rows.push({ receivedAt, timestamp, market, eventType: eventTypeName, assetId });
      return;
    }
    default:
      throw new UnreadableMessage('event_type', `"${String(message.event_type)}" is not a known market-channel message`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets a row's optional decimal from a message field, left out when the field is absent or empty. */
function setDecimal(
  row: MarketRow,
  key: 'price' | 'size' | 'bestBid' | 'bestAsk' | 'feeRateBps' | 'oldTickSize' | 'newTickSize',
  object: Record<string, unknown>,
  field: string,
): void {
  const value = optionalDecimal(object, field);
  if (value !== undefined) row[key] = value;
}

function optionalText(object: Record<string, unknown>, field: string): string | undefined {
  const value = object[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new UnreadableMessage(field, 'is not text');
}

function requiredText(object: Record<string, unknown>, field: string): string {
  const value = optionalText(object, field);
  if (value === undefined) throw new UnreadableMessage(field, 'is missing');
  return value;
}

const decimal = /^-?(\d+\.?\d*|\.\d+)(e-?\d+)?$/i;

function optionalDecimal(object: Record<string, unknown>, field: string): string | undefined {
  const value = optionalText(object, field);
  if (value !== undefined && !decimal.test(value)) throw new UnreadableMessage(field, `"${value}" is not a decimal`);
  return value;
}

function requiredDecimal(object: Record<string, unknown>, field: string): string {
  const value = optionalDecimal(object, field);
  if (value === undefined) throw new UnreadableMessage(field, 'is missing');
  return value;
}

function side(object: Record<string, unknown>): 'BUY' | 'SELL' {
  const value = object.side;
  if (value === 'BUY' || value === 'SELL') return value;
  throw new UnreadableMessage('side', `"${String(value)}" is neither BUY nor SELL`);
}

function venueTime(object: Record<string, unknown>, receivedAt: number): number {
  const text = optionalText(object, 'timestamp');
  if (text === undefined) return receivedAt;
  const ms = Number(text);
  if (!Number.isFinite(ms)) throw new UnreadableMessage('timestamp', `"${text}" is not epoch milliseconds`);
  // A few relays send seconds; the socket sends milliseconds.
  return ms < 1e11 ? ms * 1000 : ms;
}

function levels(object: Record<string, unknown>, field: string, alias: string): PriceLevel[] {
  const value = object[field] ?? object[alias];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new UnreadableMessage(field, 'is not a list');
  return value.map((level) => {
    if (!isObject(level)) throw new UnreadableMessage(`${field}[]`, 'is not an object');
    return { price: requiredDecimal(level, 'price'), size: requiredDecimal(level, 'size') };
  });
}
