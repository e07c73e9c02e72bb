import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { Container } from 'inversify';
import { type AuditActor, OrdersExportFlow } from '@subshare/core';
import type * as wire from '@subshare/core/wire';

/** The admin area's handlers with more than one step. */
export function staffHandlers(container: Container) {
  const ordersExport = container.get(OrdersExportFlow);

  return {
    /**
     * The orders as a CSV download, streamed a batch at a time (audited as `orders.export`
     * before the first line). It starts with a byte-order mark so spreadsheet programs read the
     * Korean names as UTF-8.
     */
    exportCsv: async (actor: AuditActor, query: wire.staff.ExportQuery, res: Response) => {
      const exported = await ordersExport.exportCsv(actor, query);
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${exported.filename}"`);
      async function* withBom() {
        yield '\uFEFF';
        yield* exported.lines;
      }
      await pipeline(Readable.from(withBom()), res);
    },
  };
}
