/**
 * Probes for process managers and load balancers, beside the detailed GET /api/health:
 *
 * - `GET /healthz`, liveness: the process answers. No database call, so a database outage never
 *   makes an orchestrator restart healthy processes.
 * - `GET /readyz`, readiness: send this process traffic? 200 `{ status: 'ready' }` when the
 *   database answers within READINESS_TIMEOUT_MS and has every migration this version knows, and
 *   the process is not draining; otherwise 503 `{ status: 'not_ready', reasons }` with every
 *   reason that holds (`draining`, `database_unreachable`, `database_timeout`, `migrations_pending`,
 *   `database_disk_full`: a request of this process met PostgreSQL's full disk, and a small write
 *   still fails; ready again once it works).
 *
 * Draining: shutdown sets `app.locals.draining = true` before it closes the server, so load
 * balancers stop sending new requests while the ones in flight finish.
 */
import { Router, type Request, type Response } from 'express';
import type { Container } from 'inversify';
import { OperationsService } from '@subshare/core';
import { calls } from '@subshare/core/wire';

/** How long /readyz waits for the database: a probe must answer well within its own timeout. */
export const READINESS_TIMEOUT_MS = 2_000;

export type NotReadyReason = 'draining' | 'database_unreachable' | 'database_timeout' | 'migrations_pending' | 'database_disk_full';

export function healthRoutes(container: Container): Router {
  const operations = container.get(OperationsService);
  const router = Router();

  router.get(calls.pages.healthz.path, (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'alive' });
  });

  router.get(calls.pages.readyz.path, async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    // A draining process answers at once, without the database (its pool may be closing).
    if (req.app.locals.draining === true) {
      res.status(503).json({ status: 'not_ready', reasons: ['draining'] satisfies NotReadyReason[] });
      return;
    }
    const readiness = await operations.readiness(READINESS_TIMEOUT_MS);
    const reasons: NotReadyReason[] = [];
    if (readiness.database === 'unreachable') reasons.push('database_unreachable');
    if (readiness.database === 'timeout') reasons.push('database_timeout');
    if (readiness.pendingMigrations) reasons.push('migrations_pending');
    if (readiness.writes === 'disk_full') reasons.push('database_disk_full');
    if (reasons.length === 0) {
      res.json({ status: 'ready', database: 'ok', pendingMigrations: 0 });
      return;
    }
    res.status(503).json({ status: 'not_ready', reasons, ...readiness });
  });

  return router;
}
