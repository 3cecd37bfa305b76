import type { StatusFilter } from '@predgate/core';
import { defaultLimit } from '../context.js';

const pageSize = 100;

export function statusQuery(status: StatusFilter): Record<string, boolean> {
  // `active=true` alone also returns stale backfilled items: open means neither closed nor archived.
  if (status === 'active') return { closed: false, archived: false };
  if (status === 'all') return {};
  return { closed: true };
}

export async function pages<T>(read: (limit: number, offset: number) => Promise<T[]>, params: { limit?: number; offset?: number }): Promise<T[]> {
  const wanted = params.limit ?? defaultLimit;
  const items: T[] = [];
  for (let offset = params.offset ?? 0; items.length < wanted;) {
    const size = Math.min(pageSize, wanted - items.length);
    const page = await read(size, offset);
    items.push(...page);
    if (page.length < size) break;
    offset += page.length;
  }
  return items;
}
