/**
 * Market ticker → its event's series ticker, which candlesticks need and
 * which costs two lookups to learn. Tickers never change meaning, so entries
 * never go stale; the map is bounded, oldest entries leaving first.
 */
export class SeriesTickers {
  private readonly byMarket = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  get(marketTicker: string): string | undefined {
    return this.byMarket.get(marketTicker);
  }

  set(marketTicker: string, seriesTicker: string): void {
    if (!this.byMarket.has(marketTicker) && this.byMarket.size >= this.capacity) {
      this.byMarket.delete(this.byMarket.keys().next().value!);
    }
    this.byMarket.set(marketTicker, seriesTicker);
  }
}
