export { PolymarketArchive } from './archive.js';
export type { ArchiveFile, ArchiveOptions, ImportReport } from './archive.js';
export { BookState, toOrderBook } from './book-state.js';
export type { BookSnapshot } from './book-state.js';
export { hourFileName, hourOfFileName, hourStart } from './hours.js';
export { isKeepalive, readMarketFrame, UnreadableMessage } from './market-messages.js';
export { v2Columns } from './parquet.js';
export type { ArchiveEventType, ArchiveRow, GapMarker, PriceLevel } from './rows.js';
