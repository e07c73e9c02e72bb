/**
 * What the storefront's pre-rendering needs besides HTML escaping, which is core's one
 * `escapeHtml` (catalog texts are staff input; the sitemap's XML has the same five special
 * characters, and `&#39;` works there as well as `&apos;`).
 */

/** JSON inside a <script type="application/ld+json"> block: `<` can never close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A brand colour from the catalog, or a neutral one if it is not a plain #rrggbb. */
export function safeColor(value: string, fallback = '#3f3f46'): string {
  return /^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback;
}

/** Text cut at a word boundary with an ellipsis, for meta descriptions. */
export function truncate(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}
