import { expect } from 'chai';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';

/** A GET through a keep-alive agent: the answer's headers and body. */
function get(url: string, agent: http.Agent, headers: Record<string, string> = {}) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

describe('the test round-robin proxy speaks for its own connections', () => {
  it("tells clients its own keep-alive timeout, not the backend's, and passes no hop-by-hop header on", async () => {
    // A backend like `subshare serve`: idle connections kept 65 s, so it answers `Keep-Alive: timeout=65`.
    const backend = http.createServer((req, res) => res.end(JSON.stringify(req.headers)));
    backend.keepAliveTimeout = 65_000;
    backend.listen(0, '127.0.0.1');
    await once(backend, 'listening');
    const proxy = await startRoundRobinProxy([`http://127.0.0.1:${(backend.address() as AddressInfo).port}`]);
    const agent = new http.Agent({ keepAlive: true });
    try {
      const answer = await get(`${proxy.url}/`, agent, { connection: 'keep-alive, x-hop', 'x-hop': 'for the proxy only', 'x-end': 'for the backend' });
      // The proxy closes idle client connections after 60 s: a client told 65 would send on a closing one.
      expect(answer.headers['keep-alive']).to.equal('timeout=60');
      const seen = JSON.parse(answer.body) as Record<string, string>;
      expect(seen['x-end']).to.equal('for the backend');
      expect(seen).to.not.have.property('x-hop');
    } finally {
      agent.destroy();
      await proxy.close();
      backend.closeAllConnections();
      backend.close();
    }
  });
});
