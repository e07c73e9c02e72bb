-- One order of bench/journey.mjs's checkout throughput, as pgbench runs it: the SQL statements the
-- shop sent for one order (captured with `npm run bench:journey -- --capture`, which reads every
-- statement serve and worker send to PostgreSQL off the wire while one order goes through them),
-- in their order and their transactions, with the values the shop sent made into pgbench variables.
-- Captured again on 2026-12-06 (the money ledger, the checkout claim, one order one payment).
-- test/e2e-api/journey-order-reference.test.ts keeps this file in step: it captures one order
-- through the HTTP API (every statement the shop sends, read off the wire) and fails when the
-- sequence of statement shapes (verb and table, e.g. `insert money_events`, `select orders for
-- update`, `begin`; test/support/sql-shapes.ts) differs from this file's. `--capture` prints the
-- same comparison.
-- The shop's parameters become literals or variables, its timestamps now(); long values (the
-- notification's payload, the e-mail's HTML and text) are about the same size. Differences in form
-- only: the platform's accounts, which the shop reads as rows and passes on as two arrays, are read
-- here as those two arrays (pgbench keeps a one-row answer in variables), from the same rows; the
-- order item's id, which the shop takes from the order's answer, is taken here from the same JSON
-- (`order_items`); the checkout claim's token, which the shop draws (a UUID), is drawn here by
-- PostgreSQL and kept from the claim's answer; the money event's id, which the shop takes from its
-- read of the payment's events, is kept from that same read; the activation job goes to a queue of
-- the bench's own with the activation queue's settings (bench-order-activate: no worker takes these
-- jobs, and pgbench's statements fetch and complete them). The worker's pg-boss fetch is counted
-- once (the shop's worker sends one per batch of up to four jobs, and another at once only after a
-- full batch). Not here, because no order causes them: the worker's heartbeat, pg-boss's polls
-- (fetches that find nothing, and other queues' work), and the catalog's reload (the shop reads the
-- catalog from memory; a process reloads it after a catalog change and once when it starts to
-- listen for changes, so a capture is of an order after the first two).
--
-- Variables (-D): platform_from, platforms, plantype, duration; users_from and users_to (the bench's
-- pgbench buyers, each with a session whose id is md5('bench' || user id); one is drawn per order,
-- from thousands, so a buyer rarely orders twice). Each order draws its platform among `platforms`
-- consecutive ones; the slot is the first free one of that platform, as the shop takes it
-- (claim_first_free_slot, which takes a lock per platform: no two pgbench clients take one slot).

\set user random(:users_from, :users_to)

-- POST /api/order/insert: the same order placed again within the hour is answered with the first
-- (a lock per buyer, then a look for it); else the order with its items, one statement
select users.id, users.email, users.name, users.photo_url, users.role, users.is_email_verified, users.language_id from users join auth_sessions on auth_sessions.user_id = users.id where auth_sessions.id = md5('bench' || (:user))::uuid and users.id = :user and auth_sessions.revoked_at is null and auth_sessions.expires_at > now();
\set platform :platform_from + random(0, :platforms - 1)
begin;
select pg_advisory_xact_lock(24077, :user);
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.user_id = :user and o.state = 0 and o.created_at >= now() - interval '1 hour' and o.currency = 'EUR' and o.language_id = 1 and (select count(*) from order_items i where i.order_id = o.id) = 1 and exists (select 1 from order_items i where i.order_id = o.id and i.platform_id = :platform and i.duration_id = :duration and i.plan_type_id = :plantype and i.quantity = 1 and i.unit_price_minor = 499 and i.currency = 'EUR' and i.renews_subscription_id is null) order by o.id desc limit 1;
with o as (insert into orders ("user_id", "email", "currency", "total_minor", "subtotal_minor", "total_eur_minor", "payment_method", "language_id", "created_at", "state", "updated_at") values (:user, 'buyer@example.test', 'EUR', 499, 499, 499, 2, 1, now(), 0, now()) returning *),
     i as (insert into order_items ("platform_id", "duration_id", "plan_type_id", "months", "quantity", "unit_price_minor", "currency", "needs_invitation", "invitation_email", "platform_name", "type_name", "duration_name", "platform_logo_base", "platform_color_one", "platform_category", "renews_subscription_id", order_id)
           select r."platform_id", r."duration_id", r."plan_type_id", r."months", r."quantity", r."unit_price_minor", r."currency", r."needs_invitation", r."invitation_email", r."platform_name", r."type_name", r."duration_name", r."platform_logo_base", r."platform_color_one", r."platform_category", r."renews_subscription_id", o.id
             from o, jsonb_populate_recordset(null::order_items, ('[{"months": 1, "currency": "EUR", "quantity": 1, "type_name": "Standard", "duration_id": ' || :duration || ', "platform_id": ' || :platform || ', "plan_type_id": ' || :plantype || ', "duration_name": "1 Month", "platform_name": "Bench platform", "invitation_email": null, "needs_invitation": false, "unit_price_minor": 499, "platform_category": 0, "platform_color_one": "#112233", "platform_logo_base": "/media/platforms/bench.svg", "renews_subscription_id": null}]')::jsonb) with ordinality as r
            order by r.ordinality
           returning *)
select o.*, coalesce((select json_agg(i order by i.id) from i), '[]') as items from o \gset order_
-- the welcome discount: was the buyer referred? (a bench buyer was not: the order stays as made, not read again)
select "referrals".* from "referrals" where "invitee_user_id" = :user;
commit;
-- the Order answer: the credit its payment took, and what the buyer could spend on it (issue 37)
select distinct on (order_id) order_id, credit_minor from payments where order_id = any(array[:order_id]::bigint[]) and status in ('paid', 'refunded', 'pending') order by order_id, (status <> 'pending') desc, id desc;
select "payments".* from "payments" where "order_id" = :order_id order by "id" desc;
select "credit_entries".* from "credit_entries" where "user_id" = :user and "currency" = 'EUR' order by "id" asc;

-- POST /api/payment/createcheckoutsession: the order's checkout claim (one checkout at a time per
-- order), the order's payments (a pending one of the same method would be reused), the payment,
-- the claim renewed before the provider's call, the provider's answer stored, the claim let go
select users.id, users.email, users.name, users.photo_url, users.role, users.is_email_verified, users.language_id from users join auth_sessions on auth_sessions.user_id = users.id where auth_sessions.id = md5('bench' || (:user))::uuid and users.id = :user and auth_sessions.revoked_at is null and auth_sessions.expires_at > now();
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = :order_id;
insert into checkout_claims (order_id, token, expires_at) values (:order_id, gen_random_uuid(), now() + make_interval(secs => 30)) on conflict (order_id) do update set token = excluded.token, expires_at = excluded.expires_at where checkout_claims.expires_at <= now() returning token \gset
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = :order_id;
select "payments".* from "payments" where "order_id" = :order_id order by "id" desc;
select "credit_entries".* from "credit_entries" where "user_id" = :user and "currency" = 'EUR' order by "id" asc;
select "payments".* from "payments" where "order_id" = :order_id order by "id" desc;
begin;
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = :order_id for update of o;
select * from orders where id = :order_id for update;
update "orders" set "state" = 1, "updated_at" = now(), "payment_method" = 1 where id = :order_id returning id;
select "payments".* from "payments" where "order_id" = :order_id order by "id" desc;
with drawn as (select nextval(pg_get_serial_sequence('payments', 'id')) as id) insert into payments (id, order_id, provider, method, amount_minor, currency, created_at, updated_at, status, reference, save_card) select drawn.id, :order_id, 'stripe', 1, 499, 'EUR', now(), now(), 'pending', concat(:order_id, '-', drawn.id), false from drawn returning * \gset payment_
select pg_advisory_xact_lock(50413, :user);
select "credit_entries".* from "credit_entries" where "entry_key" = 'spend:payment:' || :payment_id;
select "credit_entries".* from "credit_entries" where "user_id" = :user and "currency" = 'EUR' order by "id" asc;
commit;
update "checkout_claims" set "expires_at" = now() + make_interval(secs => 30) where "order_id" = :order_id and "token" = ':token';
update "payments" set "provider_reference" = 'cs_test_' || md5(:payment_id::text), "checkout_url" = 'http://127.0.0.1:1/pay/cs_test_' || md5(:payment_id::text), "updated_at" = now() where id = :payment_id returning id;
delete from "checkout_claims" where "order_id" = :order_id and "token" = ':token';

-- The paid part (bench/journey.mjs reads the latency from here on as the reference of paid → active).
\set paid_part 1

-- POST /api/webhook/stripe: checkout.session.completed. The payment paid, its money event in the
-- ledger (a lock per provider reference; events that came before their payment attached; the
-- payment's events read and this one applied), the order paid, the activation job, and the order's
-- reconciliation read (its payments, their events, its active subscriptions and renewals)
begin;
select * from payments where provider = 'stripe' and reference = :order_id || '-' || :payment_id limit 1 for update;
insert into "payment_events" ("provider", "event_id", "event_type", "payload", "received_at") values ('stripe', 'evt_' || md5(:payment_id::text), 'checkout.session.completed', jsonb_build_object('raw', repeat('x', 1300)), now()) on conflict ("provider", "event_id") do nothing returning id as event_row \gset
update "payments" set "status" = 'paid', "updated_at" = now(), "settled_at" = now(), "provider_payment_id" = 'pi_' || md5(:payment_id::text), "card_fingerprint" = 'fpvisa4242' where id = :payment_id returning id;
select pg_advisory_xact_lock(hashtext('money:stripe:' || :order_id || '-' || :payment_id));
select pg_advisory_xact_lock(hashtext('money:stripe:pi_' || md5(:payment_id::text)));
insert into "money_events" ("amount_minor", "currency", "event_key", "event_type", "kind", "order_id", "payment_id", "provider", "recorded_at", "status", "subject") values (499, 'EUR', 'evt_' || md5(:payment_id::text) || '/payment', 'checkout.session.completed', 'payment', :order_id, :payment_id, 'stripe', now(), 'paid', 'pi_' || md5(:payment_id::text)) on conflict ("provider", "event_key") do nothing;
update "money_events" set "payment_id" = :payment_id, "order_id" = :order_id where "provider" = 'stripe' and "payment_id" is null and "waiting_for" in ('pi_' || md5(:payment_id::text), :order_id || '-' || :payment_id);
select * from "money_events" where "payment_id" = :payment_id order by "id" asc \gset money_
update "money_events" set "applied_at" = now(), "effect" = 'paid', "order_id" = :order_id where "id" = :money_id;
select "payments".* from "payments" where "payments"."id" = :payment_id for update;
update "orders" set "state" = 6, "paid_at" = now(), "payment_method" = 1, "updated_at" = now() where id = :order_id and "state" = any('{0,1,3,4}') returning id;
WITH ins AS (
  INSERT INTO pgboss.job_common (id, name, data, priority, start_after, created_on, singleton_key, singleton_on, group_id, group_tier, expire_seconds, deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff, retry_delay_max, policy, dead_letter, heartbeat_seconds, blocked, blocking, pending_dependencies, trace_context)
  SELECT COALESCE(id, gen_random_uuid()) as id, 'bench-order-activate' as name, data, COALESCE(priority, 0) as priority, j.start_after, pgboss.job_now() as created_on, "singletonKey",
    CASE WHEN "singletonSeconds" IS NOT NULL THEN 'epoch'::timestamp + '1s'::interval * ("singletonSeconds"::float8 * floor(( date_part('epoch', pgboss.job_now()) + COALESCE("singletonOffset",0)::float8) / "singletonSeconds"::float8 )) ELSE NULL END as singleton_on,
    "groupId" as group_id, "groupTier" as group_tier, COALESCE("expireInSeconds", q.expire_seconds, 900) as expire_seconds, COALESCE("deleteAfterSeconds", q.deletion_seconds, 604800) as deletion_seconds,
    j.start_after + (COALESCE("retentionSeconds", q.retention_seconds, 1209600) * interval '1s') as keep_until, COALESCE("retryLimit", q.retry_limit, 2) as retry_limit, COALESCE("retryDelay", q.retry_delay, 0) as retry_delay,
    COALESCE("retryBackoff", q.retry_backoff, false) as retry_backoff, COALESCE("retryDelayMax", q.retry_delay_max) as retry_delay_max, q.policy, COALESCE("deadLetter", q.dead_letter) as dead_letter,
    COALESCE("heartbeatSeconds", q.heartbeat_seconds) as heartbeat_seconds, COALESCE(blocked, false) as blocked, COALESCE(blocking, false) as blocking, COALESCE("pendingDependencies", 0) as pending_dependencies, "__traceContext" as trace_context
  FROM (
    SELECT *, CASE WHEN (right("startAfter", 1) = 'Z' OR "startAfter" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}') THEN CAST("startAfter" as timestamp with time zone) ELSE pgboss.job_now() + CAST(COALESCE("startAfter",'0') as interval) END as start_after
    FROM json_to_recordset(('[{"id":null,"name":"bench-order-activate","data":{"requestId":"0f154c51-a6a5-417d-94c2-58512ccf7e29","orderId":' || :order_id || '},"priority":0,"singletonKey":"order:' || :order_id || '","singletonOffset":0,"groupId":null,"groupTier":null,"deadLetter":null,"__traceContext":null}]')::text::json) as x (
      id uuid, priority integer, data jsonb, "startAfter" text, "retryLimit" integer, "retryDelay" integer, "retryDelayMax" integer, "retryBackoff" boolean, "singletonKey" text, "singletonSeconds" integer, "singletonOffset" integer,
      "groupId" text, "groupTier" text, "expireInSeconds" integer, "deleteAfterSeconds" integer, "retentionSeconds" integer, "deadLetter" text, "heartbeatSeconds" integer, blocked boolean, blocking boolean, "pendingDependencies" integer, "__traceContext" jsonb)
  ) j
  LEFT JOIN pgboss.queue q ON q.name = 'bench-order-activate'
  ON CONFLICT DO NOTHING
  RETURNING id, start_after
),
notified AS (
  SELECT pg_notify(('pgboss_' || left(encode(sha224('pgboss'::bytea), 'hex'), 24)), 'bench-order-activate') FROM ins WHERE start_after <= pgboss.job_now() LIMIT 1
)
SELECT id as job_id FROM ins WHERE (SELECT count(*) FROM notified) >= 0 \gset
select "payments".*, exists (select 1 from refunds where refunds.payment_id = payments.id and refunds.source = 'double_payment') as second from "payments" where "order_id" = :order_id order by "id" desc;
select * from "money_events" where "payment_id" in (:payment_id) order by "id" asc;
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = :order_id for update of o;
select "subscriptions".* from "subscriptions" where "status" = 'active' and "order_item_id" in ((':order_items'::json->0->>'id')::bigint) order by "id" asc for update;
select "subscription_renewals".* from "subscription_renewals" where "order_item_id" in ((':order_items'::json->0->>'id')::bigint) and "refunded_at" is null order by "id" asc;
update "payment_events" set "outcome" = 'paid', "processed_at" = now(), "payment_id" = :payment_id, "order_id" = :order_id where id = :event_row returning id;
commit;

-- The worker: pg-boss hands it the oldest job (with several clients, sometimes another client's:
-- its completion below is then a no-op, as is the other's; no statement is skipped)
WITH next AS (
  SELECT j.id FROM pgboss.job_common j
  WHERE j.name = 'bench-order-activate' AND j.state < 'active' AND NOT j.blocked AND j.start_after <= pgboss.job_now()
  ORDER BY j.priority desc, j.created_on LIMIT 1 FOR UPDATE OF j SKIP LOCKED
)
UPDATE pgboss.job_common j SET state = 'active', started_on = pgboss.job_now(), heartbeat_on = pgboss.job_now(), retry_count = CASE WHEN started_on IS NOT NULL THEN retry_count + 1 ELSE retry_count END
FROM next WHERE name = 'bench-order-activate' AND j.id = next.id
RETURNING j.id, name, data, retry_count as "retryCount", expire_seconds as "expireInSeconds", heartbeat_seconds as "heartbeatSeconds", group_id as "groupId", group_tier as "groupTier", j.trace_context as "__traceContext";

-- The activation flow: the platform's accounts are read as one row of two arrays (the shop reads
-- the same rows and passes the two arrays on); the slot claimed and the order completed; then the
-- order's reconciliation (its payments and their events; its subscriptions, their renewals, items
-- and orders; a suspension lifted if there was one) and the buyer's e-mail
begin;
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = :order_id for update of o;
select array_agg(id order by id) as ids, array_agg(slots_count order by id) as slots from platform_accounts where platform_id = :platform and is_active and health <> 'broken' \gset
select * from subscriptions where user_id = :user and status = 'active' and suspended_at is null and platform_account_id = any(':ids'::bigint[]) and greatest(ends_at, held_until) > now() order by ends_at, id for update;
select platform_account_id, slot from free_slots(':ids'::bigint[], ':slots'::int[], 0, -1, now(), now() + interval '1 month') limit 1;
select id as subscription_id from claim_first_free_slot(21333, :platform, ':ids'::bigint[], ':slots'::int[], 0, -1, now(), now() + interval '1 month', :user, (':order_items'::json->0->>'id')::bigint, 0, null, now()) \gset
with moved as (
  update orders set state = 2, completed_at = now(), updated_at = now() where id = :order_id and state = any('{6}') returning id
), linked as (
  update order_items set subscription_id = item.subscription_id, applied_at = now()
    from moved, unnest(array[(':order_items'::json->0->>'id')::bigint], array[:subscription_id]::bigint[]) as item (id, subscription_id)
   where order_items.id = item.id and order_items.order_id = moved.id and order_items.subscription_id is null
)
select id from moved;
select "payments".*, exists (select 1 from refunds where refunds.payment_id = payments.id and refunds.source = 'double_payment') as second from "payments" where "order_id" = :order_id order by "id" desc;
select * from "money_events" where "payment_id" in (:payment_id) order by "id" asc;
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = :order_id for update of o;
select "subscriptions".* from "subscriptions" where "status" = 'active' and "order_item_id" in ((':order_items'::json->0->>'id')::bigint) order by "id" asc for update;
select "subscription_renewals".* from "subscription_renewals" where "order_item_id" in ((':order_items'::json->0->>'id')::bigint) and "refunded_at" is null order by "id" asc;
select "subscriptions".* from "subscriptions" where "subscriptions"."id" = :subscription_id for update;
select "subscription_renewals"."order_item_id" from "subscription_renewals" inner join "subscriptions" as "subscription" on "subscription"."id" = "subscription_renewals"."subscription_id" where "subscription"."order_item_id" in (select "order_item_id" from "subscriptions" where "id" = :subscription_id) and "subscription_renewals"."refunded_at" is null;
select "order_items".* from "order_items" where "order_items"."id" = (':order_items'::json->0->>'id')::bigint;
select "orders".* from "orders" where "orders"."id" in (:order_id);
select "order_items".* from "order_items" where "order_items"."order_id" in (:order_id) order by "id" asc;
select "payments".*, exists (select 1 from refunds where refunds.payment_id = payments.id and refunds.source = 'double_payment') as second from "payments" where "order_id" = :order_id order by "id" desc;
select * from "money_events" where "payment_id" in (:payment_id) order by "id" asc;
update "subscriptions" set "suspended_at" = null, "updated_at" = now() where "id" in (:subscription_id) and "suspended_at" is not null returning "id";
insert into "email_outbox" ("kind", "user_id", "to_address", "language_id", "subject", "html", "text", "code", "status", "idempotency_key", "created_at") values (1, :user, 'buyer@example.test', 1, 'Your Bench platform subscription is active (order #' || :order_id || ')', repeat('x', 4300), repeat('x', 830), null, 'kept', 'order:' || :order_id || ':activated', now()) on conflict ("idempotency_key") do nothing returning id;
commit;

-- pg-boss marks the job done
WITH input AS (
  SELECT * FROM json_to_recordset(('[{"id":"' || ':job_id' || '","retry_count":0,"output":{"outcome":"activated"}}]')::text::json) AS x (id uuid, retry_count int, output jsonb)
),
results AS (
  UPDATE pgboss.job_common j SET completed_on = pgboss.job_now(), state = 'completed', output = i.output
  FROM input i
  WHERE j.name = 'bench-order-activate' AND j.id = i.id AND j.state = 'active' AND j.retry_count = i.retry_count
  RETURNING j.id
)
SELECT COUNT(*), COALESCE(array_agg(id), '{}'::uuid[]) AS ids FROM results;
