import type { Db } from './index.js'

/**
 * Ordered, append-only. Each runs once, in its own transaction, recorded in schema_migrations.
 * Plain PostgreSQL that both PGlite and a server accept.
 */
export const MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
create table settings (
  key text primary key,
  value text not null
);

create table teams (
  id text primary key,
  name text not null,
  plan text not null check (plan in ('free', 'individual', 'team', 'enterprise')),
  is_default boolean not null default false,
  created_at timestamptz not null default now()
);
create unique index teams_one_default on teams (is_default) where is_default;

create table api_tokens (
  id text primary key,
  team_id text not null references teams (id) on delete cascade,
  name text not null,
  token_hash text not null unique,
  expires_at timestamptz,
  created_at timestamptz not null default now()
);

-- Next legacy number per team and envelope type (document_N / template_N).
create table team_counters (
  team_id text not null references teams (id) on delete cascade,
  kind text not null,
  value integer not null,
  primary key (team_id, kind)
);

-- Documents created per team and calendar month (UTC), for plan limits; deletion does not refund.
create table team_usage (
  team_id text not null references teams (id) on delete cascade,
  month text not null,
  documents integer not null,
  primary key (team_id, month)
);

create table envelopes (
  id text primary key,
  team_id text not null references teams (id) on delete cascade,
  type text not null check (type in ('DOCUMENT', 'TEMPLATE')),
  secondary_number integer not null,
  internal_version integer not null default 2,
  status text not null,
  source text not null,
  visibility text not null,
  template_type text not null,
  external_id text,
  title text not null,
  document_meta jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  deleted_at timestamptz,
  unique (team_id, type, secondary_number)
);
create index envelopes_team_list on envelopes (team_id, created_at desc, id desc);

create table document_data (
  id text primary key,
  bytes bytea not null,
  size integer not null,
  page_count integer not null,
  created_at timestamptz not null default now()
);

create table envelope_items (
  id text primary key,
  envelope_id text not null references envelopes (id) on delete cascade,
  title text not null,
  item_order integer not null,
  document_data_id text not null references document_data (id),
  page_count integer not null,
  created_at timestamptz not null default now()
);
create index envelope_items_envelope on envelope_items (envelope_id);

create table recipients (
  id serial primary key,
  envelope_id text not null references envelopes (id) on delete cascade,
  email text not null,
  name text not null,
  role text not null,
  token text not null unique,
  read_status text not null default 'NOT_OPENED',
  signing_status text not null default 'NOT_SIGNED',
  send_status text not null default 'NOT_SENT',
  signing_order integer,
  signed_at timestamptz,
  rejection_reason text,
  document_deleted_at timestamptz,
  expires_at timestamptz,
  expiration_notified_at timestamptz,
  auth_options jsonb,
  created_at timestamptz not null default now()
);
create index recipients_envelope on recipients (envelope_id);

create table fields (
  id serial primary key,
  envelope_id text not null references envelopes (id) on delete cascade,
  envelope_item_id text not null references envelope_items (id) on delete cascade,
  recipient_id integer not null references recipients (id) on delete cascade,
  type text not null,
  page integer not null,
  position_x double precision not null,
  position_y double precision not null,
  width double precision not null,
  height double precision not null,
  field_meta jsonb
);
create index fields_envelope on fields (envelope_id);

create table attachments (
  id text primary key,
  envelope_id text not null references envelopes (id) on delete cascade,
  type text not null default 'link',
  label text not null,
  data text not null,
  created_at timestamptz not null default now()
);
create index attachments_envelope on attachments (envelope_id);

-- Outbox of events (webhook delivery reads it); no foreign key: events outlive deleted envelopes.
create table events (
  id serial primary key,
  team_id text not null,
  event text not null,
  envelope_id text not null,
  payload jsonb not null,
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index events_undelivered on events (created_at) where delivered_at is null;
`,
  },
  {
    version: 2,
    sql: `
-- What a recipient filled in: the value (text, a JSON array for checkboxes, a PNG data URL for
-- signatures) and when.
alter table fields add column inserted boolean not null default false;
alter table fields add column custom_text text;
alter table fields add column inserted_at timestamptz;

-- The sealed PDF of an item, written when the envelope completes.
alter table envelope_items add column signed_document_data_id text references document_data (id);

-- Every action on an envelope, with who, from where and when. No foreign key: the record
-- outlives a deleted envelope.
create table audit_logs (
  id bigserial primary key,
  envelope_id text not null,
  team_id text not null,
  type text not null,
  created_at timestamptz not null default now(),
  name text,
  email text,
  recipient_id integer,
  ip_address text,
  user_agent text,
  data jsonb not null default '{}'
);
create index audit_logs_envelope on audit_logs (envelope_id, id);
`,
  },
  {
    version: 3,
    sql: `
-- The durable queue (server/jobs/queue.ts): webhook deliveries, e-mails, reminders, deadlines.
create table jobs (
  id bigserial primary key,
  kind text not null,
  payload jsonb not null,
  ordering_key text,
  run_at timestamptz not null default now(),
  status text not null default 'pending' check (status in ('pending', 'running', 'done', 'failed')),
  attempts integer not null default 0,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index jobs_due on jobs (run_at, id) where status in ('pending', 'running');
create index jobs_ordering on jobs (ordering_key, id) where status in ('pending', 'running') and ordering_key is not null;

create table webhooks (
  id text primary key,
  team_id text not null references teams (id) on delete cascade,
  url text not null,
  events text[] not null,
  secret text not null default '',
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhooks_team on webhooks (team_id);

-- One row per delivery attempt: what was sent and how the receiver answered.
create table webhook_calls (
  id text primary key,
  webhook_id text not null references webhooks (id) on delete cascade,
  event_id integer not null,
  event text not null,
  attempt integer not null,
  url text not null,
  request_body text not null,
  response_status integer,
  response_body text,
  error text,
  duration_ms integer not null,
  created_at timestamptz not null default now()
);
create index webhook_calls_webhook on webhook_calls (webhook_id, created_at desc, id);

-- The local mailbox: every message, when no SMTP server is configured.
create table mails (
  id bigserial primary key,
  team_id text,
  envelope_id text,
  recipient_id integer,
  template text not null,
  to_address text not null,
  from_address text not null,
  subject text not null,
  html text not null,
  text text not null,
  attachments jsonb not null default '[]',
  created_at timestamptz not null default now()
);

-- Where a team's own notices go (rejections, cancellations, completions).
alter table teams add column email text;
`,
  },
  {
    version: 4,
    sql: `
-- A stable number per team, for the deployed clients' numeric teamId / userId (host/README.md,
-- "Compatibility with the deployed clients"); existing teams are numbered in the order they are read.
alter table teams add column number serial;
create unique index teams_number on teams (number);
`,
  },
  {
    version: 5,
    sql: `
-- A template's public link (spec source TEMPLATE_DIRECT_LINK): whoever holds the token signs as
-- the template's direct recipient, and a document is made from the template for them.
create table template_direct_links (
  id text primary key,
  envelope_id text not null unique references envelopes (id) on delete cascade,
  token text not null unique,
  enabled boolean not null default true,
  recipient_id integer not null references recipients (id) on delete cascade,
  created_at timestamptz not null default now()
);
`,
  },
  {
    version: 6,
    sql: `
-- The origins allowed to frame a team's embedded pages (a JSON array of origins); null: any origin.
alter table teams add column embed_origins jsonb;
`,
  },
  {
    version: 7,
    sql: `
-- The template a document was made from (use, direct link), for its templateId.
alter table envelopes add column template_id text;
`,
  },
  {
    version: 8,
    sql: `
-- Evidence is immutable (host/README.md, "Immutable evidence"). A file is addressed by its
-- SHA-256: identical bytes share one row, and a row never changes once written.
alter table document_data add column sha256 text;
update document_data set sha256 = encode(sha256(bytes), 'hex');
alter table document_data alter column sha256 set not null;
create index document_data_sha256 on document_data (sha256);

create function document_data_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'stored file % never changes: write a new one', old.id using errcode = 'P0001';
end $$;
create trigger document_data_immutable before update on document_data
  for each row execute function document_data_immutable();

-- An item of an envelope that left DRAFT (sent, completed, rejected, cancelled) keeps its file
-- and its place for good; its sealed file, once set, too. A draft's items change freely, and
-- deleting the envelope itself (a pending document's hard delete) takes its items along.
create function envelope_items_frozen() returns trigger language plpgsql as $$
declare
  envelope text := case when tg_op = 'INSERT' then new.envelope_id else old.envelope_id end;
  sent boolean := exists (select 1 from envelopes e where e.id = envelope and e.status <> 'DRAFT');
begin
  if tg_op = 'UPDATE' then
    if old.signed_document_data_id is not null and new.signed_document_data_id is distinct from old.signed_document_data_id then
      raise exception 'the sealed file of item % never changes', old.id using errcode = 'P0001';
    end if;
    if sent and (new.document_data_id <> old.document_data_id or new.envelope_id <> old.envelope_id) then
      raise exception 'item % of a sent envelope keeps its file', old.id using errcode = 'P0001';
    end if;
    return new;
  end if;
  if sent then
    raise exception 'the items of sent envelope % cannot change', envelope using errcode = 'P0001';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end $$;
create trigger envelope_items_frozen before insert or update or delete on envelope_items
  for each row execute function envelope_items_frozen();
`,
  },
  {
    version: 9,
    sql: `
-- People (host/README.md, "Accounts, teams and the console"). E-mail addresses are stored
-- normalised (trimmed, lower-case), so one unique index compares them case-insensitively.
create table users (
  id text primary key,
  number serial unique,
  email text not null unique,
  name text not null default '',
  -- scrypt$N$r$p$salt$hash (people/passwords.ts); null: no password (e-mail link or passkey only).
  password_hash text,
  email_verified_at timestamptz,
  -- TOTP secret (base32), kept while two-factor is on.
  totp_secret text,
  totp_enabled_at timestamptz,
  created_at timestamptz not null default now()
);

-- A signed-in browser. The cookie carries the token; only its digest is stored.
create table user_sessions (
  id text primary key,
  user_id text not null references users (id) on delete cascade,
  token_hash text not null unique,
  -- The team the console shows; null until the user picks (or has) one.
  team_id text references teams (id) on delete set null,
  -- Set after the password while a second factor is still owed: such a session opens nothing else.
  second_factor_due boolean not null default false,
  user_agent text not null default '',
  ip text not null default '',
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index user_sessions_user on user_sessions (user_id);

create table team_members (
  team_id text not null references teams (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  role text not null check (role in ('ADMIN', 'MANAGER', 'MEMBER')),
  created_at timestamptz not null default now(),
  primary key (team_id, user_id)
);
create index team_members_user on team_members (user_id);

create table team_invitations (
  id text primary key,
  team_id text not null references teams (id) on delete cascade,
  email text not null,
  role text not null check (role in ('ADMIN', 'MANAGER', 'MEMBER')),
  invited_by text references users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  revoked_at timestamptz
);
create index team_invitations_team on team_invitations (team_id, created_at desc);

-- The links sent by e-mail (verify, reset, sign-in, invitation): a row per link, whose value is
-- derived from the row's id with the host's key (people/links.ts), so no secret is stored.
create table account_links (
  id text primary key,
  purpose text not null check (purpose in ('verify', 'reset', 'signin', 'invite')),
  email text not null,
  user_id text references users (id) on delete cascade,
  invitation_id text references team_invitations (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index account_links_email on account_links (purpose, email);

create table recovery_codes (
  user_id text not null references users (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  primary key (user_id, code_hash)
);

create table passkeys (
  id text primary key,
  user_id text not null references users (id) on delete cascade,
  public_key bytea not null,
  counter bigint not null default 0,
  transports jsonb not null default '[]',
  name text not null default '',
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index passkeys_user on passkeys (user_id);

-- WebAuthn challenges and other short-lived proofs in flight, keyed by a random id.
create table auth_challenges (
  id text primary key,
  purpose text not null,
  user_id text references users (id) on delete cascade,
  challenge text not null,
  expires_at timestamptz not null
);

-- Sign-in attempts per account and per address, in fixed windows (people/throttle.ts).
create table auth_throttle (
  key text primary key,
  window_start timestamptz not null,
  failures integer not null
);

-- Who did what in a team's settings (tokens, webhooks, members, invitations, settings).
create table team_activity (
  id bigserial primary key,
  team_id text not null references teams (id) on delete cascade,
  user_id text references users (id) on delete set null,
  action text not null,
  target text,
  details jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index team_activity_team on team_activity (team_id, id desc);

-- The member who made an envelope (null: made through an API token) decides, with its visibility,
-- who sees it in the console.
alter table envelopes add column created_by text references users (id) on delete set null;
alter table api_tokens add column created_by text references users (id) on delete set null;
alter table api_tokens add column last_used_at timestamptz;
`,
  },
  {
    version: 10,
    sql: `
-- The last TOTP time step a code was accepted for (people/totp.ts): a code works once, and no
-- older one works after it.
alter table users add column totp_last_step bigint;
create index auth_challenges_expiry on auth_challenges (expires_at);
`,
  },
  {
    version: 11,
    sql: `
-- Envelope-wide recipient authentication ({globalAccessAuth, globalActionAuth}); a recipient's
-- own (recipients.auth_options) overrides it (domain/recipient-auth.ts).
alter table envelopes add column auth_options jsonb;

-- One-time codes sent to a recipient's address. The code is not stored: it is derived from the
-- row's id with the host's key (recipient-auth.ts), so the mail job can send it and nothing else
-- can read it.
create table recipient_auth_codes (
  id text primary key,
  recipient_id integer not null references recipients (id) on delete cascade,
  purpose text not null,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index recipient_auth_codes_recipient on recipient_auth_codes (recipient_id, purpose, created_at);
`,
  },
  {
    version: 12,
    sql: `
-- A template's direct link: codes go to the address the visitor gives, per address.
alter table recipient_auth_codes add column email text;
`,
  },
  {
    version: 13,
    sql: `
-- Each team's live (not deleted) envelopes, counted as they are written, so that a list's total
-- costs the same at 10 envelopes and at 10 million (domain/resources.ts listEnvelopes). Kept by
-- the trigger below in the transaction that writes the envelope: exact, never estimated.
create table envelope_counts (
  team_id text not null,
  type text not null,
  internal_version integer not null,
  n bigint not null default 0,
  primary key (team_id, type, internal_version)
);
create function envelope_counts_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and (old.deleted_at is null) = (new.deleted_at is null) and old.team_id = new.team_id
     and old.type = new.type and old.internal_version = new.internal_version then
    return null;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
    insert into envelope_counts (team_id, type, internal_version, n) values (new.team_id, new.type, new.internal_version, 1)
    on conflict (team_id, type, internal_version) do update set n = envelope_counts.n + 1;
  end if;
  if tg_op in ('DELETE', 'UPDATE') and old.deleted_at is null then
    update envelope_counts set n = n - 1 where team_id = old.team_id and type = old.type and internal_version = old.internal_version;
  end if;
  return null;
end $$;
create trigger envelope_counts_apply after insert or delete or update of deleted_at, team_id, type, internal_version on envelopes
  for each row execute function envelope_counts_apply();
insert into envelope_counts (team_id, type, internal_version, n)
  select team_id, type, internal_version, count(*) from envelopes where deleted_at is null group by team_id, type, internal_version;
`,
  },
  {
    version: 14,
    sql: `
-- Files may live in an object store under their hash (STORAGE_URL): their row then holds no bytes.
alter table document_data alter column bytes drop not null;
-- The maintenance job removes what is past its retention without reading the rest.
create index jobs_done on jobs (finished_at) where status = 'done';
create index webhook_calls_created on webhook_calls (created_at);
`,
  },
  {
    version: 15,
    sql: `
-- The request that caused a job (host/server/log.ts), for the logs of its attempts.
alter table jobs add column request_id text;
`,
  },
  {
    version: 16,
    sql: `
-- The fair-use counts of each process in the current window, shared on PostgreSQL (api/rate-limit.ts).
create table rate_limit_counts (
  window_start bigint not null,
  key text not null,
  process text not null,
  n integer not null,
  primary key (window_start, key, process)
);
`,
  },
  {
    version: 17,
    sql: `
-- The queue's claim and its ends (jobs/queue.ts, jobs/ends.ts), planned to walk the indexes whatever
-- the statistics say: a burst of jobs arrives faster than statistics follow, and planned for the
-- small table the statistics described, a claim read and sorted every pending job (10x the cost at
-- 2,000 pending) and an end read the whole table. The settings hold only while each function runs.
create function claim_jobs(due timestamptz, lease_until timestamptz, wanted integer) returns setof jobs
language sql
set enable_seqscan = off set enable_bitmapscan = off set enable_sort = off set enable_hashjoin = off set enable_mergejoin = off
as $$
  update jobs set status = 'running', attempts = attempts + 1, locked_until = lease_until
  where id = any(array(
    select j.id from jobs j
    where j.status in ('pending', 'running') and j.run_at <= due and (j.status = 'pending' or j.locked_until <= due)
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
    order by j.run_at, j.id
    limit wanted
    for update skip locked))
  returning *
$$;

-- Records the ends of attempts (the arrays in step); only the holder of an attempt may: its count
-- must still match. Answers the kind, order and new status of each job it ended.
create function end_jobs(bigint[], integer[], text[], timestamptz[], text[], timestamptz[], boolean[])
returns table (kind text, ordering_key text, status text)
language sql
set enable_seqscan = off set enable_bitmapscan = off set enable_sort = off set enable_hashjoin = off set enable_mergejoin = off
as $$
  update jobs j set status = d.status, attempts = j.attempts - d.released::int, run_at = coalesce(d.run_at, j.run_at),
    locked_until = null, last_error = d.error, finished_at = d.finished_at
  from unnest($1, $2, $3, $4, $5, $6, $7) as d(id, attempts, status, run_at, error, finished_at, released)
  where j.id = d.id and j.attempts = d.attempts
  returning j.kind, j.ordering_key, d.status
$$;
`,
  },
  {
    version: 18,
    sql: `
-- The claim also takes, with each ordered job it claims, up to \`follow\` of the jobs that come next in
-- its order (due and free, up to the first that is not), which the claiming process then runs one
-- after another: an order's jobs no longer wait for a claim each (jobs/queue.ts). They are reached
-- only through their first job, which the claim locks, so no other claim can take them meanwhile.
-- It takes none of the kinds in \`skip\` (those of which the process holds as many as their limit).
drop function claim_jobs(timestamptz, timestamptz, integer);
create function claim_jobs(due timestamptz, lease_until timestamptz, wanted integer, follow integer, skip text[]) returns setof jobs
language sql
set enable_seqscan = off set enable_bitmapscan = off set enable_sort = off set enable_hashjoin = off set enable_mergejoin = off
as $$
  with heads as materialized (
    select j.id, j.ordering_key from jobs j
    where j.status in ('pending', 'running') and j.run_at <= due and (j.status = 'pending' or j.locked_until <= due)
      and j.kind <> all(skip)
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
    order by j.run_at, j.id
    limit wanted
    for update skip locked)
  update jobs set status = 'running', attempts = attempts + 1, locked_until = lease_until
  where id = any(array(
    select id from heads
    union all
    select n.id from heads h cross join lateral (
      select s.id from (
        select n.id, bool_and(n.run_at <= due and (n.status = 'pending' or n.locked_until <= due)) over (order by n.id) as free
        from jobs n
        where n.ordering_key = h.ordering_key and n.id > h.id and n.status in ('pending', 'running')
        order by n.id
        limit follow) s
      where s.free) n
    where h.ordering_key is not null and follow > 0))
  returning *
$$;
`,
  },
  {
    version: 19,
    sql: `
-- When the person last proved themselves in the session (password and second factor, a passkey,
-- an e-mailed link, or a password or code given again): sensitive changes need a recent proof.
alter table user_sessions add column proved_at timestamptz;
`,
  },
  {
    version: 20,
    sql: `
-- A credential a member makes never grants more than that member: the role they had when making it
-- is its ceiling, and their role at each use (none once they leave the team) bounds it further
-- (auth/api-tokens.ts, webhooks/store.ts). The operator's (CLI) have no ceiling: the whole team.
alter table api_tokens add column role_ceiling text;
update api_tokens a set role_ceiling = coalesce(
  (select m.role from team_members m where m.team_id = a.team_id and m.user_id = a.created_by), 'MEMBER')
where a.created_by is not null;
alter table webhooks add column created_by text references users (id) on delete set null;
alter table webhooks add column role_ceiling text;
-- Webhooks made so far: their maker as the activity log names them.
update webhooks w set created_by = (
  select a.user_id from team_activity a where a.team_id = w.team_id and a.action = 'webhook.created' and a.target = w.id
  order by a.id limit 1);
update webhooks w set role_ceiling = coalesce(
  (select m.role from team_members m where m.team_id = w.team_id and m.user_id = w.created_by), 'MEMBER')
where w.created_by is not null;
`,
  },
  {
    version: 21,
    sql: `
-- A stored file is shared only within its team (domain/files.ts): whether another team stored the
-- same bytes must not show in a file's id. Files stored so far have no team and are never found
-- again by an upload; the object store still keeps one object per hash underneath.
alter table document_data add column team_id text;
create index document_data_team_sha256 on document_data (team_id, sha256);

-- Each team a fair share of a process's slots (jobs/queue.ts): outside the kinds of \`lane\` (e-mail,
-- which has slots of its own), the claim takes none of the teams in \`skip_teams\` (those that hold
-- their share in the claiming process) and at most \`per_team\` orders of any one team, taking the
-- teams in turns: the first due order of each team, then the second... over the first 2 x \`wanted\`
-- due orders. A job's team is its payload's teamId, or its webhook's team. The candidates are read
-- first without locks, then locked through the primary key and checked again as locked.
drop function claim_jobs(timestamptz, timestamptz, integer, integer, text[]);
create function job_team(payload jsonb) returns text language sql stable as $$
  select coalesce(payload->>'teamId', (select w.team_id from webhooks w where w.id = payload->>'webhookId'))
$$;
create function claim_jobs(due timestamptz, lease_until timestamptz, wanted integer, follow integer, skip text[], skip_teams text[], per_team integer, lane text[])
returns setof jobs
language sql
set enable_seqscan = off set enable_bitmapscan = off set enable_hashjoin = off set enable_mergejoin = off set jit = off
as $$
  with due_orders as materialized (
    select j.id, j.run_at, case when j.kind = any(lane) then null else job_team(j.payload) end as team from jobs j
    where j.status in ('pending', 'running') and j.run_at <= due and (j.status = 'pending' or j.locked_until <= due)
      and j.kind <> all(skip)
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
      and (cardinality(skip_teams) = 0 or j.kind = any(lane) or job_team(j.payload) is null or job_team(j.payload) <> all(skip_teams))
    order by j.run_at, j.id
    limit 2 * wanted),
  turns as materialized (
    select d.id, d.run_at, d.team, row_number() over (partition by d.team order by d.run_at, d.id) as turn from due_orders d),
  picked as materialized (
    select array(select t.id from turns t where t.team is null or t.turn <= per_team order by t.turn, t.run_at, t.id) as ids),
  heads as materialized (
    select j.id, j.ordering_key from jobs j
    where j.id = any((select ids from picked)::bigint[])
      -- Checked again on the row as locked; written so that only the primary key can find them.
      and j.status in ('pending', 'running') and j.run_at + interval '0 s' <= due and (j.status = 'pending' or j.locked_until <= due)
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
    order by array_position((select ids from picked), j.id)
    limit wanted
    for update of j skip locked)
  update jobs set status = 'running', attempts = attempts + 1, locked_until = lease_until
  where id = any(array(
    select id from heads
    union all
    select n.id from heads h cross join lateral (
      select s.id from (
        select n.id, bool_and(n.run_at <= due and (n.status = 'pending' or n.locked_until <= due)) over (order by n.id) as free
        from jobs n
        where n.ordering_key = h.ordering_key and n.id > h.id and n.status in ('pending', 'running')
        order by n.id
        limit follow) s
      where s.free) n
    where h.ordering_key is not null and follow > 0))
  returning *
$$;
`,
  },
]

export async function migrate(db: Db): Promise<void> {
  await db.exec('create table if not exists schema_migrations (version integer primary key, applied_at timestamptz not null default now())')
  for (const m of MIGRATIONS) {
    await db.transaction(async (tx) => {
      // Several processes may start on one PostgreSQL database at once: migrate one at a time.
      await tx.query('select pg_advisory_xact_lock(7310451)')
      const done = await tx.query('select 1 from schema_migrations where version = $1', [m.version])
      if (done.length) return
      await tx.exec(m.sql)
      await tx.query('insert into schema_migrations (version) values ($1)', [m.version])
    })
  }
}
