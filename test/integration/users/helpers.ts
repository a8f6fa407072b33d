/** A calendar date `days` from today in the company zone of Skyline. */
export function dateIn(days: number, zone = 'Europe/Madrid'): string {
  const now = new Date(Date.now() + days * 86400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  );
}
