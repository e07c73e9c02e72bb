-- One order of bench/journey.mjs's checkout throughput, as pgbench runs it: the SQL statements the
-- shop sent for one order (captured with `npm run bench:journey -- --capture`, which logs every
-- statement PostgreSQL receives while one order goes through serve and worker: log_statement=all),
-- in their order and their transactions, with the values the shop sent made into pgbench variables.
-- The shop's parameters become literals or variables; long values (the notification's payload,
-- the e-mail's HTML) are the same size. The worker's pg-boss fetch is counted once (the shop's
-- worker sends up to one per idle handler when woken). The buyer, the account and the slot come
-- from the order's number, so no two pgbench clients take the same slot.
--
-- Variables (-D): platform_from, platforms, block, plantype, duration; users_from and users_to (the bench's pgbench buyers,
-- each with a session whose id is md5('bench' || user id); one is drawn per order, from thousands,
-- so a buyer rarely orders twice); orders_from (the next order id); accounts_from (the first of the
-- free accounts made for pgbench, 5 slots each, one after the other, `block` per platform). The
-- order's number also picks its platform among `platforms` consecutive ones, in turn.

\set user random(:users_from, :users_to)

-- POST /api/order/insert
select "users".* from "users" inner join "auth_sessions" on "auth_sessions"."user_id" = "users"."id" where "auth_sessions"."id" = md5('bench' || (:user))::uuid and "users"."id" = :user and "auth_sessions"."revoked_at" is null and "auth_sessions"."expires_at" > now();
select "version" from "catalog_state" where "id" = 1 limit 1;
begin;
insert into "orders" ("created_at", "currency", "email", "language_id", "payment_method", "state", "total_eur_minor", "total_minor", "updated_at", "user_id") values (now(), 'EUR', 'buyer@example.test', 1, 2, 0, 499, 499, now(), :user) returning "id" as order_id \gset
\set k :order_id - :orders_from
\set platform_index :k % :platforms
\set platform :platform_from + :platform_index
\set account :accounts_from + :platform_index * :block + (:k / :platforms) / 5
\set slot (:k / :platforms) % 5 + 1
select "orders".* from "orders" where "orders"."id" in (:order_id);
insert into "order_items" ("currency", "duration_id", "duration_name", "invitation_email", "months", "needs_invitation", "order_id", "plan_type_id", "platform_category", "platform_color_one", "platform_id", "platform_logo_base", "platform_name", "quantity", "type_name", "unit_price_minor") values ('EUR', :duration, '1 Month', null, 1, false, :order_id, :plantype, 0, '#112233', :platform, '/media/platforms/bench.svg', 'Bench platform', 1, 'Standard', 499) returning "id" as item_id \gset
select "order_items".* from "order_items" where "order_items"."id" in (:item_id);
commit;

-- POST /api/payment/createcheckoutsession (and the provider's answer stored)
select "users".* from "users" inner join "auth_sessions" on "auth_sessions"."user_id" = "users"."id" where "auth_sessions"."id" = md5('bench' || (:user))::uuid and "users"."id" = :user and "auth_sessions"."revoked_at" is null and "auth_sessions"."expires_at" > now();
select "orders".* from "orders" where "orders"."id" = :order_id;
select "order_items".* from "order_items" where "order_items"."order_id" in (:order_id) order by "id" asc;
begin;
insert into "payments" ("amount_minor", "created_at", "currency", "method", "order_id", "provider", "status", "updated_at") values (499, now(), 'EUR', 1, :order_id, 'stripe', 'pending', now()) returning "id" as payment_id \gset
update "payments" set "reference" = :order_id || '-' || :payment_id where "id" = :payment_id;
select "orders".* from "orders" where "orders"."id" = :order_id for update;
update "orders" set "state" = 1, "payment_method" = 1, "updated_at" = now() where "id" = :order_id;
commit;
update "payments" set "provider_reference" = 'cs_test_' || md5(:payment_id::text), "checkout_url" = 'http://127.0.0.1:1/pay/cs_test_' || md5(:payment_id::text), "updated_at" = now() where "id" = :payment_id;

-- The paid part (bench/journey.mjs reads the latency from here on as the reference of paid → active).
\set paid_part 1

-- POST /api/webhook/stripe: checkout.session.completed
begin;
select * from "payments" where "provider" = 'stripe' and "reference" = :order_id || '-' || :payment_id limit 1 for update;
insert into "payment_events" ("event_id", "event_type", "payload", "provider", "received_at") values ('evt_' || md5(:payment_id::text), 'checkout.session.completed', jsonb_build_object('raw', repeat('x', 1400)), 'stripe', now()) on conflict ("provider", "event_id") do nothing returning "id" as event_row \gset
update "payments" set "status" = 'paid', "updated_at" = now(), "settled_at" = now(), "provider_payment_id" = 'pi_' || md5(:payment_id::text) where "id" = :payment_id;
select "orders".* from "orders" where "orders"."id" = :order_id for update;
update "orders" set "state" = 6, "payment_method" = 1, "updated_at" = now(), "paid_at" = now() where "id" = :order_id;
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
update "payment_events" set "outcome" = 'paid', "processed_at" = now(), "payment_id" = :payment_id, "order_id" = :order_id where "id" = :event_row;
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

-- The activation flow
begin;
select "orders".* from "orders" where "orders"."id" = :order_id for update;
select "orders".* from "orders" where "orders"."id" = :order_id;
select "order_items".* from "order_items" where "order_items"."order_id" in (:order_id) order by "id" asc;
select "id", "slots_count" from "platform_accounts" where "platform_id" = :platform and "is_active" = true order by "id" asc;
select "subscriptions".* from "subscriptions" where "user_id" = :user and "status" = 'active' and "suspended_at" is null and "platform_account_id" in (select id from platform_accounts where platform_id = :platform and is_active) and "ends_at" > now() order by "ends_at" asc, "id" asc for update;
select "id", "slots_count" from "platform_accounts" where "platform_id" = :platform and "is_active" = true order by "id" asc;
select c.id as platform_account_id, s.slot
  from unnest((select array_agg(id order by id) from platform_accounts where platform_id = :platform and is_active), (select array_agg(slots_count order by id) from platform_accounts where platform_id = :platform and is_active)) as c (id, slots_count)
 cross join lateral generate_series(case when c.slots_count = 1 then 0 else 1 end, case when c.slots_count = 1 then 0 else c.slots_count end) as s (slot)
 where (c.id, s.slot) > (0, -1)
   and not exists (select 1 from subscriptions x where x.platform_account_id = c.id and x.status = 'active' and (s.slot = 0 or x.slot = 0 or x.slot = s.slot) and tstzrange(x.starts_at, x.ends_at) && tstzrange(now(), now() + interval '1 month'))
 order by c.id, s.slot
 limit 1;
savepoint trx3;
select pg_advisory_xact_lock(21333, :platform);
select pg_advisory_xact_lock(21333, :platform);
select "id", "slots_count" from "platform_accounts" where "platform_id" = :platform and "is_active" = true order by "id" asc;
select c.id as platform_account_id, s.slot
  from unnest((select array_agg(id order by id) from platform_accounts where platform_id = :platform and is_active), (select array_agg(slots_count order by id) from platform_accounts where platform_id = :platform and is_active)) as c (id, slots_count)
 cross join lateral generate_series(case when c.slots_count = 1 then 0 else 1 end, case when c.slots_count = 1 then 0 else c.slots_count end) as s (slot)
 where (c.id, s.slot) > (0, -1)
   and not exists (select 1 from subscriptions x where x.platform_account_id = c.id and x.status = 'active' and (s.slot = 0 or x.slot = 0 or x.slot = s.slot) and tstzrange(x.starts_at, x.ends_at) && tstzrange(now(), now() + interval '1 month'))
 order by c.id, s.slot
 limit 8;
savepoint trx4;
insert into "subscriptions" ("created_at", "ends_at", "order_item_id", "platform_account_id", "replaced_from_id", "slot", "starts_at", "status", "unit", "updated_at", "user_id") values (now(), now() + interval '1 month', :item_id, :account, null, :slot, now(), 'active', 0, now(), :user) returning "id" as subscription_id \gset
select "subscriptions".* from "subscriptions" where "subscriptions"."id" in (:subscription_id);
release savepoint trx4;
select "platform_accounts".* from "platform_accounts" where "id" in (:account) order by "id" asc;
release savepoint trx3;
select "orders".* from "orders" where "orders"."id" = :order_id for update;
update "order_items" set "subscription_id" = :subscription_id, "applied_at" = now() where "id" = :item_id and "order_id" = :order_id and "subscription_id" is null;
update "orders" set "state" = 2, "updated_at" = now(), "completed_at" = now() where "id" = :order_id;
insert into "email_outbox" ("code", "created_at", "html", "idempotency_key", "kind", "language_id", "status", "subject", "text", "to_address", "user_id") values (null, now(), repeat('x', 4200), 'order:' || :order_id || ':activated', 1, 1, 'pending', 'Your subscription is active', repeat('x', 1200), 'buyer@example.test', :user) on conflict ("idempotency_key") do nothing returning "id";
commit;

-- pg-boss marks the job done
WITH results AS (
  UPDATE pgboss.job_common SET completed_on = pgboss.job_now(), state = 'completed', output = '{"outcome": "activated"}'::jsonb, blocked = blocked, pending_dependencies = pending_dependencies
  WHERE name = 'bench-order-activate' AND id = ANY(array[':job_id']::uuid[]) AND state = 'active' AND state = 'active' AND (id::text || ':' || retry_count::text) = ANY(array[':job_id' || ':0'])
  RETURNING id
)
SELECT COUNT(*), COALESCE(array_agg(id), '{}'::uuid[]) AS ids FROM results;
