// Polymarket's CLOB market channel as a module of its own: the websocket
// client, the frame reader, the row shape and the book kept from rows. The
// adapter streams from it and `@predgate/archive` records with it, so the
// archive depends on the adapter, never the other way round.
export { BookState, toOrderBook } from './book-state.js';
export type { BookGap, BookSnapshot } from './book-state.js';
export { MarketChannel, polymarketMarketChannelUrl } from './market-channel.js';
export type { MarketChannelEvents, MarketChannelOptions, Outage } from './market-channel.js';
export { isKeepalive, readMarketFrame, UnreadableMessage } from './market-messages.js';
export type { MarketFrame } from './market-messages.js';
export { marketEventTypes } from './market-rows.js';
export type { MarketEventType, MarketRow, PriceLevel } from './market-rows.js';
