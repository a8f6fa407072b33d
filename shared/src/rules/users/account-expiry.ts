/**
 * Part A 4.4: an external auditor's `expiration` is a calendar date of the
 * company, the last day the account may sign in. Everything that admits an
 * account (authentication, sign-in, organisations, switch) and the 90-day rule
 * read "today" in the company's zone, so the account ends at the company's
 * midnight, not at UTC midnight.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      // An unknown zone (bad data) reads as UTC rather than failing every request of the company.
      f = formatterFor('UTC');
    }
    formatters.set(zone, f);
  }
  return f;
}

/** The calendar date (`YYYY-MM-DD`) in `zone` at the instant `atMs`. */
export function calendarDateIn(zone: string, atMs: number = Date.now()): string {
  return formatterFor(zone).format(atMs);
}

/** True when the account's last day (`expiration`, company calendar) is before today in the company zone. */
export function accountExpired(
  expiration: string | null | undefined,
  zone: string,
  atMs: number = Date.now(),
): boolean {
  return !!expiration && expiration < calendarDateIn(zone, atMs);
}
