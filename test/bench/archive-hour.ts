// The synthetic hour of the archive bench: Polymarket's market channel at
// real volume (see archive.bench.ts for the facts it is scaled to), one
// deterministic stream of frames for the recording process, and the token
// ids the bench then reads back.

export const hour = Date.UTC(2026, 10, 20, 12);
export const hourMs = 3_600_000;

/** Every frame of the hour in receive order, in batches of `batchSize`: every token's first book, then the traffic. */
export function* syntheticHour(targetRows: number, tokens: number, random: () => number, batchSize = 20_000): Generator<{ text: string; at: number }[]> {
  const markets = tokens / 2;
  let frames: { text: string; at: number }[] = [];
  let rows = 0;
  // Every token starts with a book, as the first frames after subscribing carry them.
  for (let market = 0; market < markets; market += 1) {
    for (const token of [market * 2, market * 2 + 1])
      frames.push({ at: hour + 1 + Math.floor(market / 100), text: JSON.stringify(bookMessage(market, token, hour, random)) });
    rows += 2;
    if (frames.length >= batchSize) {
      yield frames;
      frames = [];
    }
  }
  const estimatedMessages = targetRows / 2;
  const step = (hourMs - 10_000) / estimatedMessages;
  let time = hour + 1_000;
  while (rows < targetRows) {
    time += step;
    // A few markets are far busier than the rest (squared uniform: the first 1% take about 10% of the traffic).
    const market = Math.floor(random() * random() * markets);
    const kind = random();
    const at = Math.floor(time);
    let message: object;
    if (kind < 0.9955) {
      message = priceChange(market, at, random);
      rows += 2;
    } else {
      rows += 1;
      if (kind < 0.9982) message = bookMessage(market, market * 2 + (kind < 0.997 ? 0 : 1), at, random);
      else if (kind < 0.99999) message = trade(market, at, random);
      else
        message = {
          event_type: 'tick_size_change',
          asset_id: tokenId(market * 2),
          market: marketId(market),
          old_tick_size: '0.01',
          new_tick_size: '0.001',
          timestamp: String(at),
        };
    }
    frames.push({ at: at + 40 + Math.floor(random() * 200), text: JSON.stringify(message) });
    if (frames.length >= batchSize) {
      yield frames;
      frames = [];
    }
  }
  if (frames.length > 0) yield frames;
}

export function tokenId(index: number): string {
  return `${7_000_000_000 + index}${'1'.repeat(66)}`;
}

function marketId(market: number): string {
  return `0x${market.toString(16).padStart(64, '0')}`;
}

function level(price: number, random: () => number) {
  return { price: price.toFixed(2), size: (Math.round(random() * 500_000) / 100).toFixed(2) };
}

function bookMessage(market: number, token: number, time: number, random: () => number) {
  return {
    event_type: 'book',
    asset_id: tokenId(token),
    market: marketId(market),
    timestamp: String(time),
    hash: 'f'.repeat(40),
    bids: Array.from({ length: 15 }, (_, index) => level(0.35 + index * 0.01, random)),
    asks: Array.from({ length: 15 }, (_, index) => level(0.65 - index * 0.01, random)),
    tick_size: '0.01',
  };
}

function priceChange(market: number, time: number, random: () => number) {
  const cents = 30 + Math.floor(random() * 40);
  const size = random() < 0.2 ? '0' : (Math.round(random() * 200_000) / 100).toFixed(2);
  const price = (cents / 100).toFixed(2);
  const other = ((100 - cents) / 100).toFixed(2);
  return {
    event_type: 'price_change',
    market: marketId(market),
    timestamp: String(time),
    price_changes: [
      { asset_id: tokenId(market * 2), price, size, side: 'BUY', hash: 'a'.repeat(40), best_bid: price, best_ask: '0.71' },
      { asset_id: tokenId(market * 2 + 1), price: other, size, side: 'SELL', hash: 'b'.repeat(40), best_bid: '0.29', best_ask: other },
    ],
  };
}

function trade(market: number, time: number, random: () => number) {
  return {
    event_type: 'last_trade_price',
    asset_id: tokenId(market * 2),
    market: marketId(market),
    price: (0.3 + Math.floor(random() * 40) / 100).toFixed(2),
    size: String(Math.round(random() * 100)),
    side: 'BUY',
    fee_rate_bps: '0',
    timestamp: String(time),
    transaction_hash: `0x${'ab'.repeat(32)}`,
  };
}

/** A small deterministic generator, so every run builds the same hour. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
