/**
 * Middleware that needs nothing of Express: Node's own request, and a response with `locals`.
 * app.ts mounts these in Express for every request, and the lane (lane.ts) runs the same
 * functions for the requests it answers ahead of Express, so both paths do the same per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type BareResponse = ServerResponse & { locals: Record<string, unknown> };

export type BareMiddleware = (req: IncomingMessage, res: BareResponse, next: (error?: unknown) => void) => void;
