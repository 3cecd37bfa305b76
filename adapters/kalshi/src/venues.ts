/**
 * The two venues this package serves. They share every endpoint, schema and
 * signing rule; they differ in hosts, display name and accounts (a demo key
 * only works against demo hosts, and the reverse).
 */
export interface KalshiVenue {
  /** Venue id, as in `/api/{exchange}/...`; also every object's `sourceExchange`. */
  readonly id: 'kalshi' | 'kalshi-demo';
  readonly displayName: string;
  /** REST root, ending in `/trade-api/v2`. */
  readonly rest: string;
  /** Web site whose `/events/{ticker}` pages Event.url and Market.url point at. */
  readonly web: string;
}

export const kalshiVenue: KalshiVenue = {
  id: 'kalshi',
  displayName: 'Kalshi',
  rest: 'https://api.elections.kalshi.com/trade-api/v2',
  web: 'https://kalshi.com',
};

// Several secondary sources name `demo-api.elections.kalshi.com`; Kalshi's docs
// and the anchor's runtime use `kalshi.co`.
export const kalshiDemoVenue: KalshiVenue = {
  id: 'kalshi-demo',
  displayName: 'KalshiDemo',
  rest: 'https://demo-api.kalshi.co/trade-api/v2',
  web: 'https://demo.kalshi.co',
};
