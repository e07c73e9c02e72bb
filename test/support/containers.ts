/**
 * Containers beside the harness's own, on the same database, configuration and job queue: with a
 * clock the test sets by hand (expiry at the exact millisecond, without moving everyone's time),
 * or with a logger that keeps every line (to prove what never reaches the logs).
 */
import { Writable } from 'node:stream';
import type { Express } from 'express';
import { buildContainer, createLogger, TOKENS, type AppConfig, type Clock, type JobQueue, type Logger } from '@subshare/core';
import { createApp } from '@subshare/http';
import type { Container } from 'inversify';
import { closeWithHarness, harness } from './harness.js';

export function containerWith(options: { clock?: Clock; logger?: Logger; config?: AppConfig } = {}): Container {
  const { config, knex, clock, container } = harness();
  const made = buildContainer({
    config: options.config ?? config,
    knex,
    logger: options.logger ?? container.get<Logger>(TOKENS.Logger),
    jobQueue: container.get<JobQueue>(TOKENS.JobQueue),
    clock: options.clock ?? clock,
  });
  closeWithHarness(made);
  return made;
}

/** An app and its container logging at trace level, access log on; `logged()` is everything written so far. */
export function tracedApp(options: { config?: AppConfig; clock?: Clock } = {}): { app: Express; container: Container; logged: () => string } {
  let logged = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  const container = containerWith({ ...options, logger: createLogger('trace', sink) });
  return { app: createApp(container, { accessLog: true }), container, logged: () => logged };
}
