export default `
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
`
