export const venueId = 'smarkets';

/** The account's e-mail (`apiKey`) and password (`privateKey`), which log a session in. */
export const credentialMembers = ['apiKey', 'privateKey'];
