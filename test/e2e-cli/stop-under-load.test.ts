import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import { freePort } from '@subshare/core';
import { exited, spawnCli } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/** One answer read off a raw connection: its status line, headers and body. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
}

/**
 * A keep-alive connection of the test's own, on which each request is written by hand, so the
 * test sees who closes it: `ended` turns true when the server closes its side.
 */
async function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = '';
  let ended = false;
  let failure: Error | undefined;
  let waiting: (() => void) | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    waiting?.();
  });
  socket.on('end', () => {
    ended = true;
    waiting?.();
  });
  socket.on('error', (error) => {
    failure = error;
    waiting?.();
  });
  const answer = (): RawAnswer | undefined => {
    const head = buffered.indexOf('\r\n\r\n');
    if (head < 0) return undefined;
    const [statusLine, ...lines] = buffered.slice(0, head).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    if (buffered.length < head + 4 + length) return undefined;
    buffered = buffered.slice(head + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers };
  };
  return {
    get ended() {
      return ended;
    },
    /** Writes a GET and reads its answer; rejects when the connection fails first. */
    async get(path: string): Promise<RawAnswer> {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
      for (;;) {
        const got = answer();
        if (got) return got;
        if (failure || ended) throw failure ?? new Error('the server closed the connection before answering');
        await new Promise<void>((resolve) => (waiting = resolve));
      }
    },
    /** Resolves once the server has closed its side (or the connection failed). */
    async closedByServer(): Promise<boolean> {
      while (!ended && !failure) await new Promise<void>((resolve) => (waiting = resolve));
      return ended;
    },
    destroy: () => socket.destroy(),
  };
}

/**
 * An operator stops one `subshare serve` behind a load balancer while it is busy: the requests
 * on its open keep-alive connections must get their answers, never a reset.
 */
describe('stopping a busy shop: SIGTERM under load', function () {
  this.timeout(120_000);

  it('answers every request sent on an already-open keep-alive connection, each with Connection: close, then closes it', async () => {
    const port = await freePort();
    const serve = spawnCli(['serve'], { ...testEnv(harness().db.url), PORT: String(port), LOG_LEVEL: 'info' });
    await waitFor(() => serve.output().includes('HTTP server listening') || serve.exitCode !== null, {
      timeoutMs: 60_000,
      intervalMs: 50,
      what: 'serve listening',
    });
    expect(serve.exitCode, serve.output()).to.equal(null);
    const base = `http://127.0.0.1:${port}`;

    // Five quiet keep-alive connections, each with one answer behind it.
    const quiet = await Promise.all(Array.from({ length: 5 }, () => rawConnection(port)));
    for (const connection of quiet) expect((await connection.get('/healthz')).headers.connection).to.equal('keep-alive');

    // 2,500 requests, 50 at a time over a keep-alive pool, as a load balancer sends them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    type Outcome = { reused: boolean; status?: number; connection?: string; error?: string };
    const outcomes: Outcome[] = [];
    const one = () =>
      new Promise<Outcome>((resolve) => {
        const req = http.get(`${base}/api/main/home`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ reused: req.reusedSocket, status: res.statusCode, connection: res.headers.connection }));
          res.on('error', (error: NodeJS.ErrnoException) => resolve({ reused: req.reusedSocket, error: error.code ?? error.message }));
        });
        req.on('error', (error: NodeJS.ErrnoException) => resolve({ reused: req.reusedSocket, error: error.code ?? error.message }));
      });
    let sent = 0;
    const loops = Array.from({ length: 50 }, async () => {
      while (sent < 2_500) {
        sent += 1;
        outcomes.push(await one());
      }
    });
    await waitFor(() => outcomes.length >= 500, { timeoutMs: 60_000, intervalMs: 10, what: '500 answers before the signal' });
    serve.kill('SIGTERM');
    await waitFor(() => serve.output().includes('shutting down'), { timeoutMs: 10_000, intervalMs: 5, what: 'the shutdown to begin' });

    // The quiet connections carry one more request each during the drain: answered, then closed by the server.
    const drained = await Promise.all(
      quiet.map((connection) =>
        connection.get('/healthz').then(
          async (answer) => `${answer.status} ${answer.headers.connection} ${(await connection.closedByServer()) ? 'then closed' : 'left open'}`,
          (error: Error) => error.message,
        ),
      ),
    );

    await Promise.all(loops);
    agent.destroy();
    quiet.forEach((connection) => connection.destroy());
    expect(await exited(serve), serve.output()).to.equal(0);

    const failedOnOpenConnections = outcomes.filter((outcome) => outcome.reused && outcome.error).map((outcome) => outcome.error);
    expect(failedOnOpenConnections, 'requests on already-open connections that got no answer').to.deep.equal([]);
    expect(drained, 'a request on each quiet connection during the drain').to.deep.equal(Array(5).fill('200 close then closed'));
    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    expect(answered.filter((outcome) => outcome.status !== 200)).to.deep.equal([]);
    // The drain happened under load: answers that closed their connection, then refused new ones.
    expect(answered.filter((outcome) => outcome.connection === 'close').length).to.be.greaterThan(0);
    expect(outcomes).to.have.length(2_500);
  });
});
