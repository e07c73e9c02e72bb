/**
 * One order, one open checkout (issue 34), without a database connection held while a provider
 * answers. A checkout of an order first claims the order: a row of `checkout_claims`, written in
 * one statement of its own and so committed at once. Holding it, the checkout looks at the order's
 * earlier checkouts, asks the provider (no transaction open), opens its payment, makes the
 * provider's session, records it, and gives the claim up. Another checkout of the same order (a
 * second tab, a back button, 8 clicks on a pay link) waits for the claim and then finds the
 * session recorded: the one it reuses.
 *
 * A claim left by a process that died expires (`CLAIM_LIFETIME_MS`, on the database's clock, which
 * every process of a cluster shares). The holder moves its expiry on before each provider call,
 * which ends within the provider's request timeout (10 s), so a live checkout keeps its claim. A
 * claim is lost only when another checkout took it over after it expired (its holder stalled past
 * the lifetime, e.g. waiting for a pooled connection in a burst): that holder stops before its
 * provider call and starts again.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { fail } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';

/** How long a claim lasts without being moved on: the longest provider request (10 s) and a margin. */
export const CLAIM_LIFETIME_MS = 30_000;
/** How often a waiting checkout looks again: a provider answers in about this much or more. */
const WAIT_STEP_MS = 50;
/** A checkout waits at most this long for the order's other checkout, then answers 503 (try again). */
const WAIT_LIMIT_MS = 2 * CLAIM_LIFETIME_MS;
/** A claim's end, on the database's clock. */
const EXPIRY = `now() + make_interval(secs => ${CLAIM_LIFETIME_MS / 1000})`;

/** The holder's claim was taken over (it stalled past its lifetime): it must not call the provider on it. */
export class CheckoutClaimLost extends Error {
  constructor(orderId: number) {
    super(`the checkout claim of order ${orderId} expired while it was held`);
  }
}

/** A held claim of one order's checkout. */
export interface CheckoutClaim {
  readonly orderId: number;
  /** Before each provider call: moves the expiry on; throws CheckoutClaimLost when another checkout took the claim over. */
  keep(): Promise<void>;
  /** Gives the claim up (the next checkout of the order goes on at once). Never throws. */
  release(): Promise<void>;
}

@injectable()
export class CheckoutClaims {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /**
   * Claims the order's checkout, waiting while another checkout of the order holds it (each look
   * a statement of its own: nothing is held while waiting). 503 `provider_unavailable` when the
   * other one holds it past `WAIT_LIMIT_MS`.
   */
  async claim(orderId: number): Promise<CheckoutClaim> {
    const token = randomUUID();
    const giveUpAt = Date.now() + WAIT_LIMIT_MS;
    while (!(await this.take(orderId, token))) {
      if (Date.now() > giveUpAt) throw fail('provider_unavailable');
      await sleep(WAIT_STEP_MS);
    }
    return {
      orderId,
      keep: async () => {
        // Still ours when no one took it over, even if it expired meanwhile (a holder that waited
        // for a pooled connection in a burst): only a takeover writes another token.
        const moved = await this.knex('checkout_claims')
          .where({ order_id: orderId, token })
          .update({ expires_at: this.knex.raw(EXPIRY) });
        if (moved === 0) throw new CheckoutClaimLost(orderId);
      },
      release: async () => {
        await this.knex('checkout_claims')
          .where({ order_id: orderId, token })
          .del()
          .catch(() => undefined); // left behind, it expires
      },
    };
  }

  /** One statement: a new claim, or one over an expired claim (its holder died or stalled); nothing while another is live. */
  private async take(orderId: number, token: string): Promise<boolean> {
    const { rows } = await this.knex.raw<{ rows: unknown[] }>(
      `insert into checkout_claims (order_id, token, expires_at) values (?, ?, ${EXPIRY})
       on conflict (order_id) do update set token = excluded.token, expires_at = excluded.expires_at
       where checkout_claims.expires_at <= now()
       returning token`,
      [orderId, token],
    );
    return rows.length === 1;
  }
}
