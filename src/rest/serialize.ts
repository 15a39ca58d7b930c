/** ISO 8601 UTC, or null. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The id behind a relation reference, or null. */
export const refId = (ref: { id: string } | null | undefined): string | null => ref?.id ?? null;
