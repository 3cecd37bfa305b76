import { LRUCache } from 'lru-cache';
import type { CatalogStatus } from '../store.js';
import { openList, openMatches } from './matches.js';
import type { Matches, OpenList } from './matches.js';
import { ShortTexts } from './short-texts.js';
import type { StoredEntry } from './stored-entry.js';
import { TrigramIndex } from './trigram-index.js';

/**
 * The events of a search, kept per text: their places in the Router order and,
 * beside each, when it stops being open (see `closingOf`). A page of closed
 * or all events walks these two typed arrays, not the events, so the next
 * page of a word (or another client's) costs a pass over numbers, not a test
 * of every match. Open events, what the Router asks by default, are also kept
 * as an open list: a page of them and their count cost what the page costs,
 * not a pass over every match.
 */
interface Holding {
  positions: Int32Array;
  closing: Float64Array;
  open: OpenList;
}

/** Bytes of kept searches per partition at most (about 28 per match): every title word of a 100,000-event mock venue is some 7 MB. */
const keptBytes = 16 * 1024 * 1024;

/**
 * Substring search over one partition's events in Router order: the trigram
 * index narrows (for texts under three characters, the short texts' table),
 * `includes` confirms, and what a text holds is kept. Built between requests
 * (see `build`); until then it answers nothing and the partition scans.
 */
export class TextSearch {
  private trigrams: TrigramIndex | undefined;
  private shortTexts: ShortTexts | undefined;
  private readonly kept = new LRUCache<string, Holding>({
    maxSize: keptBytes,
    sizeCalculation: (holding) =>
      holding.positions.byteLength + holding.closing.byteLength + holding.open.rank.length * 8 + holding.open.closingTimes.byteLength + 64,
  });

  constructor(private readonly rank: readonly StoredEntry[]) {}

  async build(): Promise<void> {
    const texts = this.rank.map((entry) => entry.search);
    this.trigrams = await TrigramIndex.build(texts);
    this.shortTexts = await ShortTexts.build(texts);
  }

  /** The events whose search text holds `text` (lower-case), in Router order; undefined while the index is not built. */
  entries(text: string): StoredEntry[] | undefined {
    const holding = this.holding(text);
    return holding && Array.from(holding.positions, (position) => this.rank[position]!);
  }

  /**
   * The events holding `text` of a status only, in Router order, with their
   * count: open ones from their open list, others by one pass over the kept
   * numbers, where a page stops once it is full. Undefined while the index is
   * not built.
   */
  matches(text: string, status: CatalogStatus, expiredBy: number | undefined): Matches<StoredEntry> | undefined {
    const holding = this.holding(text);
    if (!holding) return undefined;
    if (status === 'active') return openMatches(holding.open, expiredBy);
    const { positions, closing } = holding;
    // Closed now is a closing time at or before `closedBy`: a closed event's is -Infinity, one that never closes +Infinity.
    const closedBy = expiredBy ?? -Infinity;
    const wanted = (index: number) => status === 'all' || closing[index]! <= closedBy;
    let total = positions.length;
    if (status !== 'all') {
      total = 0;
      for (let index = 0; index < closing.length; index += 1) if (wanted(index)) total += 1;
    }
    const rank = this.rank;
    return {
      total,
      *items() {
        for (let index = 0; index < positions.length; index += 1) if (wanted(index)) yield rank[positions[index]!]!;
      },
      slice(start, end) {
        const page: StoredEntry[] = [];
        let seen = 0;
        for (let index = 0; index < positions.length && seen < end; index += 1) {
          if (!wanted(index)) continue;
          if (seen >= start) page.push(rank[positions[index]!]!);
          seen += 1;
        }
        return page;
      },
    };
  }

  private holding(text: string): Holding | undefined {
    const kept = this.kept.get(text);
    if (kept) return kept;
    // The trigram index answers undefined for a text too short for it; the short texts' table answers undefined only until built.
    const candidates = this.trigrams?.candidates(text) ?? this.shortTexts?.candidates(text);
    if (!candidates) return undefined;
    const positions = candidates.filter((position) => this.rank[position]!.search.includes(text));
    const closing = Float64Array.from(positions, (position) => closingOf(this.rank[position]!));
    const open: StoredEntry[] = [];
    for (const position of positions) if (!this.rank[position]!.closed) open.push(this.rank[position]!);
    const holding = { positions, closing, open: openList(open) };
    this.kept.set(text, holding);
    return holding;
  }
}

/** When the event stops being open, as one number: -Infinity if the venue closed it, +Infinity if it has no close time. */
function closingOf(entry: StoredEntry): number {
  if (entry.closed) return -Infinity;
  return entry.closesAt ?? Infinity;
}
