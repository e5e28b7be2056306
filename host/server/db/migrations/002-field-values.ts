export default `
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
`
