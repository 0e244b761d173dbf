/**
 * Days of the calendar as the API writes them: `YYYY-MM-DD` (decision `date-type`). An
 * {@link IsoDate} is a string that was checked to be such a day (a real one: no `2026-02-30`),
 * so a request's date field takes only a day built here, and an answer's reads as one.
 */

/** A day of the calendar as `YYYY-MM-DD`, checked (build it with {@link isoDate}, {@link isoDateOf}, {@link todayUtc}). */
export type IsoDate = string & { readonly __isoDate: unique symbol };

const SHAPE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/u;
const DAY_MS = 86_400_000;

/** Whether `text` is exactly `YYYY-MM-DD` naming a day of the calendar (years 0001 to 9999). */
export function isIsoDate(text: unknown): text is IsoDate {
  if (typeof text !== "string") return false;
  const m = SHAPE.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
  return d <= days;
}

/** The day `text` names (`"2026-11-27"`); a `RangeError` for any other text. */
export function isoDate(text: string): IsoDate {
  if (!isIsoDate(text)) throw new RangeError(`${JSON.stringify(text.slice(0, 40))} is not a date YYYY-MM-DD of the calendar`);
  return text;
}

/** The UTC day of a JavaScript `Date` (the service's days are UTC days). */
export function isoDateOf(moment: Date): IsoDate {
  const t = moment.getTime();
  if (!Number.isFinite(t)) throw new RangeError("an invalid Date has no day");
  return isoDate(moment.toISOString().slice(0, 10));
}

/** Today in UTC, by the system clock. */
export function todayUtc(): IsoDate {
  return isoDateOf(new Date());
}

/** The day `n` days after `day` (before it for a negative `n`). */
export function addDays(day: IsoDate, n: number): IsoDate {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${n} is not a whole number of days`);
  return isoDateOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}
