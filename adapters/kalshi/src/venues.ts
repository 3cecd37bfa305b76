/**
 * The two venues this package serves. They share every endpoint, schema and
 * signing rule; they differ in hosts, display name and accounts (a demo key
 * only works against demo hosts, and the reverse).
 */
export interface KalshiVenue {
  /** Venue id, as in `/api/{exchange}/...`; also every object's `sourceExchange`. */
  readonly id: 'kalshi' | 'kalshi-demo';
  readonly displayName: string;
  /** REST root, ending in `/trade-api/v2`: the host Kalshi recommends. */
  readonly rest: string;
  /** Origins serving the same REST API, asked when the recommended host does not resolve or connect. */
  readonly restFallbacks: readonly string[];
  /** Web site whose `/events/{ticker}` pages Event.url and Market.url point at. */
  readonly web: string;
  /** Websocket root (`/trade-api/ws/v2`) Kalshi recommends; the handshake is signed even for public channels. */
  readonly ws: string;
  /** Roots serving the same channels, dialled when the recommended host does not resolve or connect. */
  readonly wsFallbacks: readonly string[];
}

export const kalshiVenue: KalshiVenue = {
  id: 'kalshi',
  displayName: 'Kalshi',
  rest: 'https://external-api.kalshi.com/trade-api/v2',
  restFallbacks: ['https://api.elections.kalshi.com'],
  web: 'https://kalshi.com',
  ws: 'wss://external-api-ws.kalshi.com/trade-api/ws/v2',
  wsFallbacks: ['wss://api.elections.kalshi.com/trade-api/ws/v2'],
};

export const kalshiDemoVenue: KalshiVenue = {
  id: 'kalshi-demo',
  displayName: 'KalshiDemo',
  rest: 'https://external-api.demo.kalshi.co/trade-api/v2',
  restFallbacks: ['https://demo-api.kalshi.co'],
  web: 'https://demo.kalshi.co',
  ws: 'wss://external-api-ws.demo.kalshi.co/trade-api/ws/v2',
  wsFallbacks: ['wss://demo-api.kalshi.co/trade-api/ws/v2'],
};
