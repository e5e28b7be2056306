export default `
-- Envelope-wide recipient authentication ({globalAccessAuth, globalActionAuth}); a recipient's
-- own (recipients.auth_options) overrides it (domain/recipient/auth.ts).
alter table envelopes add column auth_options jsonb;

-- One-time codes sent to a recipient's address. The code is not stored: it is derived from the
-- row's id with the host's key (domain/recipient/auth.ts), so the mail job can send it and nothing else
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
`
