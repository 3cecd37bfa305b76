/**
 * One copy of each repeated value across a sweep's entries: categories and
 * tag lists repeat across thousands of events and markets, and every parse
 * or `toLowerCase` makes a new copy of each.
 */
export class Interner {
  private readonly texts = new Map<string, string>();
  private readonly lists = new Map<string, readonly string[]>();
  private readonly wholes = new Map<string, unknown>();

  text<T extends string | null>(value: T): T {
    if (value === null) return value;
    const known = this.texts.get(value);
    if (known !== undefined) return known as T;
    this.texts.set(value, value);
    return value;
  }

  /** Lists are shared whole: entries never change them. */
  list(values: string[]): string[] {
    if (values.length === 0) return empty;
    const key = values.join('\u0000');
    const known = this.lists.get(key);
    if (known !== undefined) return known as string[];
    const shared = values.map((value) => this.text(value));
    this.lists.set(key, shared);
    return shared;
  }

  /**
   * A value of few, small parts (an event's table of categories or of tag
   * lists) shared whole with every equal one, by its JSON: most events of a
   * venue have one of a handful of such tables.
   */
  whole<T>(value: T): T {
    const key = JSON.stringify(value);
    const known = this.wholes.get(key);
    if (known !== undefined) return known as T;
    this.wholes.set(key, value);
    return value;
  }
}

const empty: string[] = [];
