/** Dates of the panel in the interface language's own format ("Nov 27, 2026, 3:04 PM", "2026. 11. 27. 오후 3:04"). */
export function formatDateTime(iso: string | null, culture: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(culture, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The id of a /user/{id} address, or null when it is not one. */
export function userIdOf(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
