/**
 * What the storefront's head needs besides HTML escaping, which is core's one `escapeHtml`
 * (catalog texts are staff input; the sitemap's XML has the same five special characters, and
 * `&#39;` works there as well as `&apos;`).
 */

/** JSON inside a <script> element (schema.org data, the rendered state): `<` can never close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
