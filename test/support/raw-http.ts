/**
 * A GET of the shared test server whose body the test sees as it was sent: node:http, not
 * supertest, whose client would decompress it first. For the tests of compression, ETags and
 * exact bytes.
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { harness } from './harness.js';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export async function rawGet(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const base = await harness().baseUrl();
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The body in clear, whatever the answer's Content-Encoding (br, gzip or none). */
export function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  return encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body;
}
