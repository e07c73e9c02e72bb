/**
 * What the local provider fakes (fake-*.ts) have in common, so that each of them holds only its
 * provider's protocol: a real HTTP server on 127.0.0.1 with a port of its own, reading a request,
 * and the queues behind their `failNext` / `delayNext` knobs. The knobs themselves stay public on
 * each fake, because their signatures and default error bodies are the provider's.
 *
 *   class FakeThing extends LocalHttpServer {
 *     constructor() { super('FakeThing'); }
 *     protected override async handle(req, res) { … }   // the protocol
 *     protected override answerCrash(res) { … }         // the provider's own 500, when not plain text
 *   }
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fakes read it: the whole body, since every provider protocol here is small. */
export interface LocalRequest {
  /** `GET` when Node gives none. */
  method: string;
  /** The request URL against a dummy origin: only path and query mean anything. */
  url: URL;
  contentType: string;
  rawBody: string;
}

/** An answer a test queued in place of the next real one. */
export interface QueuedFailure<Body> {
  status: number;
  body: Body;
}

// The queue a failure goes to when the fake does not keep one per endpoint.
const ANY_REQUEST = '';

/** An answer in text (HTML by default), for pay pages and for what gateways send in front of an API. */
export function sendText(res: ServerResponse, status: number, text: string, type = 'text/html; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export abstract class LocalHttpServer<FailureBody = unknown> {
  private server?: Server;
  private url?: string;
  private readonly failures = new Map<string, Array<QueuedFailure<FailureBody>>>();
  private readonly delays: number[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  /** `serverName` names the fake in errors (class names do not survive every transpiler). */
  protected constructor(private readonly serverName: string) {}

  get baseUrl(): string {
    if (!this.url) throw new Error(`${this.serverName} is not started`);
    return this.url;
  }

  /** Listens on a free port; calling it again while running changes nothing. */
  async start(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
    if (!this.server) {
      const server = createServer((req, res) => {
        this.handle(req, res).catch(() => this.crashed(res));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      this.server = server;
      this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
    return { baseUrl: this.url as string, stop: () => this.stop() };
  }

  /**
   * Closes at once, keep-alive connections included, so a test's `after` never waits on a client.
   * Answers still held back by a delay are dropped: their clients see the connection close.
   */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The provider's protocol. A rejection is answered by `answerCrash`. */
  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;

  /** The 500 this provider sends when something breaks on its side (here: a bug in the fake). */
  protected answerCrash(res: ServerResponse): void {
    sendText(res, 500, 'Internal Server Error', 'text/plain');
  }

  protected async readRequest(req: IncomingMessage): Promise<LocalRequest> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return {
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', 'http://localhost'),
      contentType: req.headers['content-type'] ?? '',
      rawBody: Buffer.concat(chunks).toString('utf8'),
    };
  }

  /** Queues an answer for the next request (to `endpoint`, for fakes that keep one queue per endpoint). */
  protected queueFailure(failure: QueuedFailure<FailureBody>, endpoint = ANY_REQUEST): void {
    const queue = this.failures.get(endpoint) ?? [];
    queue.push(failure);
    this.failures.set(endpoint, queue);
  }

  protected takeFailure(endpoint = ANY_REQUEST): QueuedFailure<FailureBody> | undefined {
    return this.failures.get(endpoint)?.shift();
  }

  protected queueDelay(ms: number): void {
    this.delays.push(ms);
  }

  /**
   * Waits out the next queued delay, if any. False when the client gave up meanwhile (a client
   * timeout): then nothing is to be answered, and a queued failure is left for the next request.
   */
  protected async waitQueuedDelay(res: ServerResponse): Promise<boolean> {
    const delay = this.delays.shift();
    if (!delay) return true;
    return this.hold(delay, res);
  }

  /** Waits `ms` before answering (cut short by `stop`). False when the client gave up meanwhile. */
  protected async hold(ms: number, res: ServerResponse): Promise<boolean> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
    return !res.destroyed;
  }

  /**
   * Calls one of our endpoints the way the provider does (a webhook, a notification). The body goes
   * out exactly as given, because the signature in it or in the headers was computed over those bytes.
   */
  protected async post(url: string, message: { headers: Record<string, string>; body: string }): Promise<{ status: number; body: string }> {
    const response = await fetch(url, { method: 'POST', headers: message.headers, body: message.body });
    return { status: response.status, body: await response.text() };
  }

  private crashed(res: ServerResponse): void {
    // Once an answer has begun, a second one would throw out of the server: cut the connection instead.
    if (res.headersSent) res.destroy();
    else this.answerCrash(res);
  }
}
