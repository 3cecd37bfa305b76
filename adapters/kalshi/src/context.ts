import type { Clock, Logger } from '@predgate/core';
import type { KalshiApi } from './api/client.js';
import type { KalshiConfig } from './config.js';
import type { Origin } from './normalize/origin.js';
import type { SeriesTickers } from './reads/series-tickers.js';
import type { SeriesDirectory } from './reads/series-directory.js';

/** What every read and account call of one adapter instance shares. */
export interface KalshiContext {
  api: KalshiApi;
  origin: Origin;
  config: KalshiConfig;
  clock: Clock;
  logger: Logger;
  seriesTickers: SeriesTickers;
  seriesDirectory: SeriesDirectory;
}
