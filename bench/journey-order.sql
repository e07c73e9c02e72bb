-- One order of bench/journey.mjs's checkout throughput, as pgbench runs it: the SQL statements the
-- shop sent for one order (captured with `npm run bench:journey -- --capture`, which logs every
-- statement PostgreSQL receives while one order goes through serve and worker: log_statement=all),
-- in their order and their transactions, with the values the shop sent made into pgbench variables.
-- The shop's parameters become literals or variables; long values (the notification's payload,
-- the e-mail's HTML) are the same size. Two differ in form only: the platform's accounts, which
-- the shop reads as rows and passes on as two arrays, are read here as those two arrays (pgbench
-- keeps a one-row answer in variables), from the same rows; and the order item's id, which the
-- shop takes from the order's answer, is taken here from the same JSON (`items`). The worker's pg-boss fetch is counted once (the shop's
-- worker sends one per batch of up to four jobs, and another at once only after a full batch). The buyer, the account and the slot come
-- from the order's number, so no two pgbench clients take the same slot.
--
-- Variables (-D): platform_from, platforms, plantype, duration; users_from and users_to (the bench's
-- pgbench buyers, each with a session whose id is md5('bench' || user id); one is drawn per order,
-- from thousands, so a buyer rarely orders twice); orders_from (the next order id). The order's
-- number picks its platform among `platforms` consecutive ones, in turn; the slot is the first free
-- one of that platform, as the shop takes it (claim_first_free_slot).

\set user random(:users_from, :users_to)

-- POST /api/order/insert (the order with its items, one statement)
select users.id, users.email, users.name, users.photo_url, users.role, users.is_email_verified, users.language_id from users join auth_sessions on auth_sessions.user_id = users.id where auth_sessions.id = md5('bench' || (:user))::uuid and users.id = :user and auth_sessions.revoked_at is null and auth_sessions.expires_at > now();
\set platform :platform_from + random(0, :platforms - 1)
with o as (insert into orders ("user_id", "email", "currency", "total_minor", "total_eur_minor", "payment_method", "language_id", "created_at", "state", "updated_at") values (:user, 'buyer@example.test', 'EUR', 499, 499, 2, 1, now(), 0, now()) returning *),
     i as (insert into order_items ("platform_id", "duration_id", "plan_type_id", "months", "quantity", "unit_price_minor", "currency", "needs_invitation", "invitation_email", "platform_name", "type_name", "duration_name", "platform_logo_base", "platform_color_one", "platform_category", order_id)
           select r."platform_id", r."duration_id", r."plan_type_id", r."months", r."quantity", r."unit_price_minor", r."currency", r."needs_invitation", r."invitation_email", r."platform_name", r."type_name", r."duration_name", r."platform_logo_base", r."platform_color_one", r."platform_category", o.id
             from o, jsonb_populate_recordset(null::order_items, ('[{"months": 1, "currency": "EUR", "quantity": 1, "type_name": "Standard", "duration_id": ' || :duration || ', "platform_id": ' || :platform || ', "plan_type_id": ' || :plantype || ', "duration_name": "1 Month", "platform_name": "Bench platform", "invitation_email": null, "needs_invitation": false, "unit_price_minor": 499, "platform_category": 0, "platform_color_one": "#112233", "platform_logo_base": "/media/platforms/bench.svg"}]')::jsonb) with ordinality as r
            order by r.ordinality
           returning *)
select o.id as order_id, coalesce((select json_agg(i order by i.id) from i), '[]') as items from o \gset

-- POST /api/payment/createcheckoutsession (and the provider's answer stored)
select users.id, users.email, users.name, users.photo_url, users.role, users.is_email_verified, users.language_id from users join auth_sessions on auth_sessions.user_id = users.id where auth_sessions.id = md5('bench' || (:user))::uuid and users.id = :user and auth_sessions.revoked_at is null and auth_sessions.expires_at > now();
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = :order_id;
begin;
select * from orders where id = :order_id for update;
update "orders" set "state" = 1, "updated_at" = now(), "payment_method" = 1 where id = :order_id returning id;
with drawn as (select nextval(pg_get_serial_sequence('payments', 'id')) as id) insert into payments (id, order_id, provider, method, amount_minor, currency, created_at, updated_at, status, reference) select drawn.id, :order_id, 'stripe', 1, 499, 'EUR', now(), now(), 'pending', concat(:order_id, '-', drawn.id) from drawn returning id as payment_id \gset
commit;
update "payments" set "provider_reference" = 'cs_test_' || md5(:payment_id::text), "checkout_url" = 'http://127.0.0.1:1/pay/cs_test_' || md5(:payment_id::text), "updated_at" = now() where id = :payment_id returning id;

-- The paid part (bench/journey.mjs reads the latency from here on as the reference of paid → active).
\set paid_part 1

-- POST /api/webhook/stripe: checkout.session.completed
begin;
select * from payments where provider = 'stripe' and reference = :order_id || '-' || :payment_id limit 1 for update;
insert into "payment_events" ("provider", "event_id", "event_type", "payload", "received_at") values ('stripe', 'evt_' || md5(:payment_id::text), 'checkout.session.completed', jsonb_build_object('raw', repeat('x', 1400)), now()) on conflict ("provider", "event_id") do nothing returning id as event_row \gset
update "payments" set "status" = 'paid', "updated_at" = now(), "settled_at" = now(), "provider_payment_id" = 'pi_' || md5(:payment_id::text) where id = :payment_id returning id;
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
-- the same rows and passes the two arrays on).
begin;
select o.*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = :order_id for update of o;
select array_agg(id order by id) as ids, array_agg(slots_count order by id) as slots from platform_accounts where platform_id = :platform and is_active \gset
select * from subscriptions where user_id = :user and status = 'active' and suspended_at is null and platform_account_id = any(':ids'::bigint[]) and ends_at > now() order by ends_at, id for update;
select platform_account_id, slot from free_slots(':ids'::bigint[], ':slots'::int[], 0, -1, now(), now() + interval '1 month') limit 1;
select id as subscription_id from claim_first_free_slot(21333, :platform, ':ids'::bigint[], ':slots'::int[], 0, -1, now(), now() + interval '1 month', :user, (':items'::json->0->>'id')::bigint, 0, null, now()) \gset
with moved as (
  update orders set state = 2, completed_at = now(), updated_at = now() where id = :order_id and state = any('{6}') returning id
), linked as (
  update order_items set subscription_id = item.subscription_id, applied_at = now()
    from moved, unnest(array[(':items'::json->0->>'id')::bigint], array[:subscription_id]::bigint[]) as item (id, subscription_id)
   where order_items.id = item.id and order_items.order_id = moved.id and order_items.subscription_id is null
)
select id from moved;
insert into "email_outbox" ("kind", "user_id", "to_address", "language_id", "subject", "html", "text", "code", "status", "idempotency_key", "created_at") values (1, :user, 'buyer@example.test', 1, 'Your subscription is active', repeat('x', 4200), repeat('x', 1200), null, 'kept', 'order:' || :order_id || ':activated', now()) on conflict ("idempotency_key") do nothing returning id;
commit;

-- pg-boss marks the job done
WITH results AS (
  UPDATE pgboss.job_common SET completed_on = pgboss.job_now(), state = 'completed', output = '{"outcome": "activated"}'::jsonb, blocked = blocked, pending_dependencies = pending_dependencies
  WHERE name = 'bench-order-activate' AND id = ANY(array[':job_id']::uuid[]) AND state = 'active' AND state = 'active' AND (id::text || ':' || retry_count::text) = ANY(array[':job_id' || ':0'])
  RETURNING id
)
SELECT COUNT(*), COALESCE(array_agg(id), '{}'::uuid[]) AS ids FROM results;
