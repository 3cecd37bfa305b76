export const venueId = 'baozi';
/** The Baozi program on Solana mainnet. */
export const programId = 'FWyTPzm5cfJwRKzfkscxozatSxF6Qu78JQovQUwKPruJ';
