/**
 * IANA time zones as the runtime's Intl knows them. Ids are the zone names
 * themselves (company and user `timezone_id` fields hold them), so the map of
 * `/users/timezones.json` is name to name.
 */
export function timeZoneNames(): string[] {
  const list = Intl.supportedValuesOf('timeZone');
  // Node's list holds canonical zones only; UTC is valid and used for flight times.
  return list.includes('UTC') ? [...list] : ['UTC', ...list];
}

/** The canonical IANA name of a zone (`US/Eastern` → `America/New_York`), or null when Intl does not know it. */
export function canonicalTimeZone(name: string): string | null {
  if (!name || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
