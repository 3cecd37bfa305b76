import type { Venue } from './venue.js';

/** The enabled venues, looked up by id on every request. */
export class VenueDirectory {
  private readonly byId: Map<string, Venue>;

  constructor(venues: readonly Venue[]) {
    this.byId = new Map(venues.map((venue) => [venue.id, venue]));
  }

  get ids(): string[] {
    return [...this.byId.keys()];
  }

  get(id: string): Venue | undefined {
    return this.byId.get(id);
  }

  all(): Venue[] {
    return [...this.byId.values()];
  }
}
