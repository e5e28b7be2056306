export default `
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
`
