const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `text` is a day of the calendar written YYYY-MM-DD (`2026-02-30` is not). */
export function isCalendarDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}
