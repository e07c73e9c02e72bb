/**
 * A logo uploaded through the catalog editor: its real type from its bytes, never from its name
 * or the declared Content-Type alone, and SVG rewritten from an allowlist.
 *
 * - PNG: the 8-byte signature and an IHDR chunk first. WebP: `RIFF....WEBP`.
 * - SVG: parsed as XML (htmlparser2 in XML mode: a parser only, nothing is run or fetched) and
 *   serialised again from what the allowlist keeps: SVG shape, paint and text elements with
 *   presentation attributes. Dropped: scripts, <style>, <foreignObject>, <image>, animation
 *   elements, every attribute not listed (so every `on*` handler), links other than to a
 *   fragment of the same file (`href="#id"`), `url(...)` other than `url(#id)`, comments,
 *   processing instructions, and doctypes (one that declares entities is refused outright).
 *   The root must be <svg>.
 * The declared type must be the one the bytes are: a PNG sent as image/svg+xml is refused.
 */
import { createHash } from 'node:crypto';
import { parseDocument } from 'htmlparser2';
import { ValidationError, fail } from '../../shared/errors.js';
import { escapeHtml } from '../../shared/html.js';
import { LOGO_MAX_BYTES, LOGO_TYPES, type LogoType } from '../../validation/catalog.js';

export { LOGO_MAX_BYTES, LOGO_TYPES, type LogoType };

export interface CheckedLogo {
  contentType: LogoType;
  body: Buffer;
  sha256: string;
  extension: string;
  /** SVG: something was removed. */
  sanitized: boolean;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the bytes are, or undefined. */
export function sniffLogoType(bytes: Buffer): LogoType | undefined {
  if (bytes.length > 16 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.subarray(12, 16).toString('latin1') === 'IHDR') return 'image/png';
  if (bytes.length > 16 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return undefined;
}

export function checkLogo(bytes: Buffer, declared: string | undefined): CheckedLogo {
  const declaredType = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(declaredType in LOGO_TYPES)) throw fail('upload_type_unsupported');
  if (bytes.length === 0) throw fail('upload_empty');
  if (bytes.length > LOGO_MAX_BYTES) throw new ValidationError(`A logo is at most ${LOGO_MAX_BYTES / 1024} KiB.`, undefined, 'upload_too_large');
  const actual = sniffLogoType(bytes);
  if (actual !== declaredType)
    throw new ValidationError(
      actual ? `The file is ${actual}, not ${declaredType}.` : `The file is not a valid ${declaredType} image.`,
      undefined,
      'upload_type_mismatch',
    );
  let body = bytes;
  let sanitized = false;
  if (actual === 'image/svg+xml') {
    const clean = sanitizeSvg(bytes.toString('utf8'));
    body = Buffer.from(clean.svg, 'utf8');
    sanitized = clean.removed;
  }
  return { contentType: actual, body, sha256: createHash('sha256').update(body).digest('hex'), extension: LOGO_TYPES[actual], sanitized };
}

const ELEMENTS = new Set(
  [
    'svg',
    'g',
    'defs',
    'title',
    'desc',
    'symbol',
    'use',
    'path',
    'rect',
    'circle',
    'ellipse',
    'line',
    'polyline',
    'polygon',
    'text',
    'tspan',
    'textPath',
    'lineargradient',
    'radialgradient',
    'stop',
    'clippath',
    'mask',
    'pattern',
    'filter',
    'fegaussianblur',
    'feoffset',
    'feblend',
    'fecolormatrix',
    'feflood',
    'fecomposite',
    'femerge',
    'femergenode',
    'metadata',
  ].map((name) => name.toLowerCase()),
);
// Elements dropped with everything inside them (their content is code, markup or a fetch).
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'foreignobject',
  'image',
  'iframe',
  'object',
  'embed',
  'audio',
  'video',
  'animate',
  'set',
  'animatemotion',
  'animatetransform',
  'handler',
  'listener',
]);

const ATTRIBUTES = new Set(
  [
    'id',
    'class',
    'd',
    'x',
    'y',
    'x1',
    'y1',
    'x2',
    'y2',
    'cx',
    'cy',
    'r',
    'rx',
    'ry',
    'fx',
    'fy',
    'dx',
    'dy',
    'width',
    'height',
    'viewbox',
    'points',
    'fill',
    'fill-opacity',
    'fill-rule',
    'stroke',
    'stroke-width',
    'stroke-linecap',
    'stroke-linejoin',
    'stroke-miterlimit',
    'stroke-dasharray',
    'stroke-dashoffset',
    'stroke-opacity',
    'opacity',
    'transform',
    'offset',
    'stop-color',
    'stop-opacity',
    'gradientunits',
    'gradienttransform',
    'spreadmethod',
    'clip-path',
    'clip-rule',
    'clippathunits',
    'mask',
    'maskunits',
    'maskcontentunits',
    'patternunits',
    'patterncontentunits',
    'patterntransform',
    'preserveaspectratio',
    'xmlns',
    'xmlns:xlink',
    'version',
    'font-family',
    'font-size',
    'font-weight',
    'font-style',
    'text-anchor',
    'dominant-baseline',
    'letter-spacing',
    'style',
    'href',
    'xlink:href',
    'filter',
    'stddeviation',
    'in',
    'in2',
    'result',
    'mode',
    'values',
    'type',
    'operator',
    'k1',
    'k2',
    'k3',
    'k4',
    'flood-color',
    'flood-opacity',
    'display',
    'visibility',
    'vector-effect',
    'shape-rendering',
    'color',
    'overflow',
    'xml:space',
    'filterunits',
    'primitiveunits',
    'startoffset',
    'lengthadjust',
    'textlength',
  ].map((name) => name.toLowerCase()),
);

interface XmlNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: XmlNode[];
}

/** A value that may only point inside the file: `url(...)` must be `url(#id)`, no script or data URLs, no CSS imports. */
const NAMESPACES: Record<string, string> = { xmlns: 'http://www.w3.org/2000/svg', 'xmlns:xlink': 'http://www.w3.org/1999/xlink' };

function safeValue(name: string, value: string): boolean {
  // Only SVG's own namespaces: another default namespace would turn the elements into something else.
  if (name in NAMESPACES) return value.trim() === NAMESPACES[name];
  // CSS escapes (\75 rl) would hide a url( or an expression from the checks below.
  if (value.includes('\\')) return false;
  // eslint-disable-next-line no-control-regex -- control bytes hide a scheme from a naive check (java\tscript:)
  const compact = value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase();
  if (/javascript:|vbscript:|data:|expression\(|@import|behavior:|-moz-binding/.test(compact)) return false;
  for (const match of compact.matchAll(/url\(([^)]*)\)/g)) if (!/^['"]?#/.test(match[1] ?? '')) return false;
  if ((name === 'href' || name === 'xlink:href') && !compact.startsWith('#')) return false;
  return true;
}

/** The SVG rewritten from the allowlist; `removed` says whether anything was dropped. */
export function sanitizeSvg(source: string): { svg: string; removed: boolean } {
  if (/<!ENTITY/i.test(source)) throw new ValidationError('An SVG with entity declarations is not accepted.', undefined, 'svg_invalid');
  const document = parseDocument(source, { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true }) as unknown as XmlNode;
  let removed = false;
  const roots = (document.children ?? []).filter((node) => node.type === 'tag' || node.type === 'script' || node.type === 'style');
  const stray = (document.children ?? []).some((node) => node.type === 'text' && (node.data ?? '').trim() !== '');
  if (roots.length !== 1 || roots[0]!.name?.toLowerCase() !== 'svg' || stray)
    throw new ValidationError('The file is not an SVG image: its root element must be <svg>.', undefined, 'svg_invalid');

  const write = (node: XmlNode): string => {
    if (node.type === 'text') return escapeHtml(node.data ?? '');
    if (node.type === 'cdata') return (node.children ?? []).map(write).join('');
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') {
      if (node.type !== 'directive' || !/^\?xml(\s|$)/i.test(node.data ?? '')) removed = true;
      return '';
    }
    const name = node.name ?? '';
    const lower = name.toLowerCase();
    if (DROP_WITH_CONTENT.has(lower) || !ELEMENTS.has(lower)) {
      removed = true;
      // An unknown wrapper (an <a>, say) keeps its drawable children; code and markup go whole.
      return DROP_WITH_CONTENT.has(lower) ? '' : (node.children ?? []).map(write).join('');
    }
    let attributes = '';
    for (const [attribute, value] of Object.entries(node.attribs ?? {})) {
      const key = attribute.toLowerCase();
      if (!ATTRIBUTES.has(key) || !safeValue(key, value)) {
        removed = true;
        continue;
      }
      attributes += ` ${attribute}="${escapeHtml(value)}"`;
    }
    const inner = (node.children ?? []).map(write).join('');
    return inner ? `<${name}${attributes}>${inner}</${name}>` : `<${name}${attributes}/>`;
  };
  let svg = write(roots[0]!);
  if (!/^<svg[^>]*\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(svg)) svg = svg.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  return { svg: `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`, removed };
}
