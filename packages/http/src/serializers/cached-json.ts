/**
 * JSON answers. Catalog answers are the same bytes for everyone who asks in the same language
 * and currency, until the catalog changes. They are serialized, hashed (ETag) and compressed
 * (brotli, gzip) once, kept in a WeakMap keyed by the catalog's platform list (a catalog reload
 * makes a new list, so the old bytes go with it), and written in one piece: no JSON.stringify
 * and no compression per request. bench/api.mjs measured why (most of the time went there).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Negotiator from 'negotiator';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';

/** As the compression middleware: smaller bodies are not worth compressing. */
const COMPRESS_THRESHOLD = 1024;
/**
 * Per-request answers up to this size are compressed in one synchronous call (about 0.05 ms for a
 * panel); larger ones (a page of 100 orders, the OpenAPI document) on libuv's thread pool, so a
 * big answer does not hold the event loop.
 */
const SYNC_COMPRESS_LIMIT = 32 * 1024;
/** Distinct Accept-Encoding values remembered (browsers send a handful). */
const ENCODING_MEMORY = 100;

export interface CachedJson {
  json: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

export function cachedJson(value: unknown): CachedJson {
  const json = Buffer.from(JSON.stringify(value), 'utf8');
  return { json, etag: `"${createHash('sha1').update(json).digest('base64url')}"` };
}

/** Bodies per catalog list (by identity) and key. */
export class JsonCache<K extends object> {
  private readonly entries = new WeakMap<K, Map<string, CachedJson>>();

  get(owner: K, key: string, build: () => unknown): CachedJson {
    let byKey = this.entries.get(owner);
    if (!byKey) {
      byKey = new Map();
      this.entries.set(owner, byKey);
    }
    let entry = byKey.get(key);
    if (!entry) {
      entry = cachedJson(build());
      byKey.set(key, entry);
    }
    return entry;
  }
}

/** Adds fields to the answer's Vary header, keeping what is there. */
export function addVary(res: ServerResponse, fields: string): void {
  const current = res.getHeader('Vary');
  res.setHeader('Vary', current === undefined || current === '' ? fields : `${String(current)}, ${fields}`);
}

/**
 * Whether the client's copy is current: its If-None-Match names this ETag (weak comparison, as
 * RFC 9110 asks for If-None-Match) or is `*`, and it did not ask to revalidate with
 * `Cache-Control: no-cache`. (What Express's `req.fresh` answers for a GET without dates.)
 */
export function clientHasCurrent(req: IncomingMessage, etag: string): boolean {
  const offered = req.headers['if-none-match'];
  if (!offered) return false;
  if (/(?:^|,)\s*no-cache\s*(?:,|$)/.test(req.headers['cache-control'] ?? '')) return false;
  if (offered.trim() === '*') return true;
  const strip = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return offered.split(',').some((tag) => strip(tag.trim()) === strip(etag));
}

const OFFERED = ['br', 'gzip'] as const;
const encodingMemory = new Map<string, 'br' | 'gzip' | undefined>();

/**
 * Brotli when the client takes it (smaller; its cost is paid once), else gzip, else none.
 * `negotiator` reads the header (q-values, `*`, an explicit `br;q=0` over `*`); the choice per
 * distinct header is remembered, as browsers send a handful.
 */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  if (encodingMemory.has(header)) return encodingMemory.get(header);
  const accepted = new Negotiator({ headers: { 'accept-encoding': header } }).encodings(OFFERED);
  const chosen = OFFERED.find((coding) => accepted.includes(coding));
  if (encodingMemory.size >= ENCODING_MEMORY) encodingMemory.clear();
  encodingMemory.set(header, chosen);
  return chosen;
}

/**
 * Sends the cached body in the best encoding the client accepts; 304 when its copy is current.
 * `varyBy`: the request headers the body depends on, besides Accept-Encoding.
 */
export function sendCachedJson(req: IncomingMessage, res: ServerResponse, body: CachedJson, varyBy?: string): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', body.etag);
  addVary(res, varyBy ? `${varyBy}, Accept-Encoding` : 'Accept-Encoding');
  if (clientHasCurrent(req, body.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  let payload = body.json;
  if (payload.length >= COMPRESS_THRESHOLD) {
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    if (encoding === 'br') {
      body.br ??= brotliCompressSync(body.json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.json.length } });
      payload = body.br;
      res.setHeader('Content-Encoding', 'br');
    } else if (encoding === 'gzip') {
      body.gzip ??= gzipSync(body.json, { level: 9 });
      payload = body.gzip;
      res.setHeader('Content-Encoding', 'gzip');
    }
  }
  res.setHeader('Content-Length', payload.length);
  res.end(payload);
}

/**
 * The smallest brotli window that holds the whole answer (a window is 2^bits - 16 bytes; 10 to
 * 24 bits). The encoder sets up its window for every answer: the default 4 MB one cost a panel
 * read about a third of its compression time (bench:api), for the same bytes.
 */
function brotliFor(length: number): BrotliOptions {
  const windowBits = Math.min(constants.BROTLI_MAX_WINDOW_BITS, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(length + 16))));
  return { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: length, [constants.BROTLI_PARAM_LGWIN]: windowBits } };
}

/**
 * A per-request answer (every JSON call of the route table): serialized once and, from 1 KB,
 * compressed here as the compression middleware would (brotli at quality 4, else gzip), in one
 * call rather than a stream per answer. bench:api measured the middleware at about 0.1 ms of CPU
 * per panel read for wrapping the response alone, and its stream at 0.7 ms, so these answers do
 * not pass through it (app.ts). No ETag: API answers are `no-store`.
 */
export function sendJson(req: IncomingMessage, res: ServerResponse, value: unknown): void {
  const json = Buffer.from(JSON.stringify(value), 'utf8');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  addVary(res, 'Accept-Encoding');
  const encoding = json.length >= COMPRESS_THRESHOLD ? chooseEncoding(req.headers['accept-encoding']) : undefined;
  const send = (payload: Buffer, as?: 'br' | 'gzip') => {
    if (as) res.setHeader('Content-Encoding', as);
    res.setHeader('Content-Length', payload.length);
    res.end(payload);
  };
  if (!encoding) send(json);
  else if (json.length <= SYNC_COMPRESS_LIMIT) send(encoding === 'br' ? brotliCompressSync(json, brotliFor(json.length)) : gzipSync(json), encoding);
  else {
    // Compression failing is not the client's problem: the answer goes out as it is.
    const done = (error: Error | null, compressed: Buffer) => (error ? send(json) : send(compressed, encoding));
    if (encoding === 'br') brotliCompress(json, brotliFor(json.length), done);
    else gzip(json, done);
  }
}
