/** Basis points of percent to a fraction of one (5000 → 0.5). */
export const fromBasisPoints = (value: number) => value / 10_000;
/** Ten-thousandths of the currency to currency units. */
export const fromQuantity = (value: number) => value / 10_000;
