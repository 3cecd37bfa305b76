export const venueId = 'polymarket_us';

/** The API key's id (`apiKey`) and its base64 Ed25519 secret (`privateKey`, or `apiSecret`). */
export const credentialMembers = ['apiKey', 'privateKey'];

/** Events and markets a list call answers when the caller names no limit. */
export const defaultLimit = 100;
