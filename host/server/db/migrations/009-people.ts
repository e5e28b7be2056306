export default `
-- People (docs/accounts.md). E-mail addresses are stored
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
`
