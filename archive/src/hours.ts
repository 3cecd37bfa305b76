const hourMs = 3_600_000;

/** Start of the UTC hour containing `ms`. */
export function hourStart(ms: number): number {
  return Math.floor(ms / hourMs) * hourMs;
}

export function nextHour(start: number): number {
  return start + hourMs;
}

export function previousHour(start: number): number {
  return start - hourMs;
}

/** `YYYY-MM-DDTHH`, the hour part of pmxt's file names. */
export function hourKey(start: number): string {
  return new Date(start).toISOString().slice(0, 13);
}

export function hourFromKey(key: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}$/.test(key)) return undefined;
  const ms = Date.parse(`${key}:00:00.000Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

export const filePrefix = 'polymarket_orderbook_';

/** pmxt's naming: `polymarket_orderbook_YYYY-MM-DDTHH.parquet`. */
export function hourFileName(start: number): string {
  return `${filePrefix}${hourKey(start)}.parquet`;
}

export function hourOfFileName(name: string): number | undefined {
  const match = /^polymarket_orderbook_(\d{4}-\d{2}-\d{2}T\d{2})\.parquet$/.exec(name);
  return match ? hourFromKey(match[1]!) : undefined;
}
