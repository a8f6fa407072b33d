/**
 * Money and hours as integers (CONTRACT 6): amounts in cents, hours in
 * seconds, tax rates in hundredths of a percent. Nothing here uses floating
 * point arithmetic on money; a JSON number is read through its decimal text.
 */

/** Integer division rounded half away from zero (b > 0). */
export function divRound(a: number, b: number): number {
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || b <= 0)
    throw new RangeError('divRound needs safe integers and a positive divisor');
  const q = Math.floor((2 * Math.abs(a) + b) / (2 * b));
  return a < 0 && q !== 0 ? -q : q;
}

/** `12.3` → 1230; null when the value is not a finite decimal with at most two decimals. */
export function toCents(value: number | string): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const m = /^(-)?(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] && cents !== 0 ? -cents : cents;
}

/** Cents → JSON number (1230 → 12.3): the nearest double of a two-decimal value prints exactly. */
export const fromCents = (cents: number): number => cents / 100;

/** Hours with at most two decimals → seconds (0.01 h = 36 s exactly); null when not such a value. */
export function hoursToSeconds(value: number | string): number | null {
  const hundredths = toCents(value);
  return hundredths === null ? null : hundredths * 36;
}

/** Seconds → hours as a JSON number. */
export const secondsToHours = (seconds: number): number => seconds / 3600;

/** A tax percent (21, 7.5) → hundredths of a percent (2100, 750). */
export const taxBasisPoints = (percent: number): number => Math.round(percent * 100);

/** Net for `seconds` at `centsPerHour`, rounded half away from zero to the cent. */
export const netFor = (centsPerHour: number, seconds: number): number => divRound(centsPerHour * seconds, 3600);

/** Tax of a net at `bp` hundredths of a percent, rounded the same way. */
export const taxOf = (net: number, bp: number): number => divRound(net * bp, 10000);

/** The tax part included in a gross price (a package's price is entered with its tax). */
export const includedTax = (gross: number, bp: number): number => divRound(gross * bp, 10000 + bp);
