const UNIT_MS: Record<string, number> = { seconds: 1_000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/**
 * `amount` of a retry delay unit in milliseconds: `seconds`, `minutes`, `hours` or `days`
 * (anything else, or none, counts as seconds). Campaign retry tiers and flow retries share
 * the vocabulary (semantics: Campaigns, Outbound webhooks).
 */
export const delayMs = (amount: number, unit: string | undefined): number => amount * (UNIT_MS[unit ?? 'seconds'] ?? 1_000);
