// The limits the double announces in its handshake reply. They are mongod
// 7.0's defaults, so a store that fits them here also fits a real server.

/** Largest BSON document a client may send or receive. */
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;

/** Largest wire message, header included. */
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;

/** Most statements the driver puts into one insert, update or delete command. */
export const MAX_WRITE_BATCH_SIZE = 100_000;

/** Documents in a cursor's first batch when the client names no batchSize. */
export const DEFAULT_FIRST_BATCH_SIZE = 101;
