/**
 * Operations calls: the health report and this API's own description.
 */
import * as yup from 'yup';
import { integer, list, text } from './fields.js';

/** 200 when the shop can serve, 503 (same shape) when the database cannot. */
export const healthAnswer = yup.object({
  status: yup
    .string()
    .oneOf(['ok', 'degraded'] as const)
    .defined(),
  database: yup
    .string()
    .oneOf(['ok', 'unreachable'] as const)
    .defined(),
  /** The parts that cannot serve now, e.g. ['database']. */
  down: list(yup.string().oneOf(['database'] as const)),
  /** Why the database is unreachable (refused, lost, timed out, ...); only when it is. */
  databaseError: yup.string(),
  pendingMigrations: integer(),
  /** Seconds since any worker last reported in; null if none ever did. */
  workerSeenSecondsAgo: yup.number().nullable().defined(),
});

/** An OpenAPI 3.1 document (its parts are objects of their own standard). */
export const openApiAnswer = yup.object({
  openapi: yup
    .string()
    .oneOf(['3.1.0'] as const)
    .defined(),
  info: yup
    .object({
      title: text(),
      version: text(),
      description: text(),
      license: yup.object({ name: text(), identifier: text() }).defined(),
      contact: yup.object({ name: text(), url: text() }).defined(),
    })
    .defined(),
  servers: list(yup.object({ url: text() })),
  security: list(yup.object()),
  tags: list(yup.object({ name: text(), description: text() })),
  paths: yup.object().defined(),
  components: yup.object().defined(),
});

export type HealthAnswer = yup.InferType<typeof healthAnswer>;
