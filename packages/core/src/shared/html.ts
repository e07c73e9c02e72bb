/**
 * The one HTML escaping of the shop: the storefront's pre-rendered pages and sitemap, the demo
 * checkout page and the e-mails all write staff or buyer text into markup through it, and the
 * logo sanitiser (catalog/logo-file.ts) writes an uploaded SVG's text and attributes again with it.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in element content and in double- or single-quoted attribute values, of HTML and of XML. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}
