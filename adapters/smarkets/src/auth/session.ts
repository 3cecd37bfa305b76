import { toEpochMs } from '@predgate/core';

/** What a login answers: the token and when it stops (the venue writes `stop` without a zone: UTC). */
export interface Session {
  token: string;
  stop: string;
}

/** Renew this long before the venue's stop, so no call goes out with a token about to lapse. */
const renewMarginMs = 60_000;
/** Tokens live 30 minutes; when the venue's stop cannot be read, that is the expiry assumed. */
const lifetimeMs = 30 * 60_000;

/**
 * The session token of one account: logged in on first need, reused while
 * valid, renewed before it lapses, and shared by concurrent calls (one login
 * for all of them, as the venue allows only a few logins per five minutes).
 * The token is kept in memory only.
 */
export class SessionTokens {
  private current: { token: string; expiresAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly login: () => Promise<Session>,
    private readonly now: () => number,
  ) {}

  async token(): Promise<string> {
    if (this.current && this.now() < this.current.expiresAt - renewMarginMs) return this.current.token;
    this.pending ??= this.login()
      .then((session) => {
        const stop = toEpochMs(/[zZ]|[+-]\d\d:?\d\d$/.test(session.stop) ? session.stop : `${session.stop}Z`);
        this.current = { token: session.token, expiresAt: stop ?? this.now() + lifetimeMs };
        return session.token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** After the venue refused the token (401): the next call logs in again. */
  forget(): void {
    this.current = undefined;
  }
}
