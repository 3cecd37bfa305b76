export const venueId = 'gemini-titan';

/** Gemini's API key and its HMAC secret. */
export const credentialMembers = ['apiKey', 'apiSecret'];

/** Events, markets and orders a list call answers when the caller names no limit. */
export const defaultLimit = 100;
