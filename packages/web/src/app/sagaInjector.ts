/**
 * Starts the saga of a lazily loaded feature once, when its chunk arrives (the login steps'
 * saga is not in the first download). The store registers how sagas are run; a saga
 * injected before that waits for it.
 */
import type { Task } from 'redux-saga';

export type Saga = () => Generator;
type Runner = (saga: Saga) => Task;

let runner: Runner | null = null;
const waiting: Saga[] = [];
const started = new Set<string>();

export function setSagaRunner(run: Runner): void {
  runner = run;
  started.clear();
  for (const saga of waiting.splice(0)) run(saga);
}

/** Idempotent per key: a second import or a re-render does not start a second copy. */
export function injectSaga(key: string, saga: Saga): void {
  if (started.has(key)) return;
  started.add(key);
  if (runner) runner(saga);
  else waiting.push(saga);
}
