/** A platform id as the URL carries it: digits only, positive; anything else is not a platform (not found). */
export function parsePlatformId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}
