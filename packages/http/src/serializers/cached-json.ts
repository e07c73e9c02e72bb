/**
 * Catalog answers are the same bytes for everyone who asks in the same language and currency,
 * until the catalog changes. They are serialized, hashed (ETag) and compressed (brotli, gzip)
 * once, kept in a WeakMap keyed by the catalog's platform list (a catalog reload makes a new
 * list, so the old bytes go with it), and written straight to the socket: no JSON.stringify
 * and no compression per request. bench/api.mjs measured why (most of the time went there).
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** As the compression middleware: smaller bodies are not worth compressing. */
const COMPRESS_THRESHOLD = 1024;

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

/** Sends the cached body in the best encoding the client accepts; 304 when its copy is current. */
export function sendCachedJson(req: Request, res: Response, body: CachedJson): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', body.etag);
  res.vary('Accept-Encoding');
  if (req.headers['if-none-match'] && req.fresh) {
    res.status(304).end();
    return;
  }
  let payload = body.json;
  if (payload.length >= COMPRESS_THRESHOLD) {
    // Brotli first when the client takes it: it is smaller, and its cost is paid once.
    const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip');
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
