import { closeSync, existsSync, fsyncSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import type { GapMarker } from './rows.js';

/**
 * Every interval the archive holds no data for, in one append-only file
 * (`gaps.jsonl`): an outage is one line whatever hours it spans, so each hour
 * it touches sees it, and a book is flagged by exactly the gaps that overlap
 * the interval it covers. A reader process picks up lines the recorder adds.
 */
export class GapLog {
  private gaps: GapMarker[] = [];
  private readBytes = 0;

  constructor(private readonly path: string) {
    this.refresh();
  }

  /** Records a gap; it is durable when this returns. */
  add(gap: GapMarker): void {
    this.refresh();
    const fd = openSync(this.path, 'a');
    try {
      const line = `${JSON.stringify(gap)}\n`;
      writeSync(fd, line);
      fsyncSync(fd);
      this.readBytes += Buffer.byteLength(line);
    } finally {
      closeSync(fd);
    }
    this.gaps.push(gap);
  }

  /** The latest moment any gap reaches. */
  get lastTo(): number | undefined {
    this.refresh();
    return this.gaps.reduce<number | undefined>((latest, gap) => Math.max(latest ?? gap.to, gap.to), undefined);
  }

  /**
   * A reader of the gaps as they are now (the file looked at once, for a
   * query that flags many books): the union of the gaps of `assetId` that
   * overlap a book's cover, from its last full snapshot (`syncedAt`,
   * received) to the moment it is asked for.
   */
  reader(): (assetId: string, syncedAt: number, moment: number) => { from: number; to: number } | undefined {
    this.refresh();
    const gaps = this.gaps;
    return (assetId, syncedAt, moment) => {
      let found: { from: number; to: number } | undefined;
      for (const gap of gaps) {
        if (gap.to <= syncedAt || gap.from >= moment) continue;
        if (gap.assetIds && !gap.assetIds.includes(assetId)) continue;
        found = found ? { from: Math.min(found.from, gap.from), to: Math.max(found.to, gap.to) } : { from: gap.from, to: gap.to };
      }
      return found;
    };
  }

  private refresh(): void {
    if (!existsSync(this.path)) return;
    const size = statSync(this.path).size;
    if (size === this.readBytes) return;
    const text = readFileSync(this.path, 'utf8');
    // A torn last line (a crash mid-append) was never synced: it is not a gap yet.
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    this.gaps = complete
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as GapMarker);
    this.readBytes = size;
  }
}
