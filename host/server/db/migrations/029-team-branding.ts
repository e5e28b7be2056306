export default `
-- A team's branding and document defaults (docs/branding.md), one row per team; no row, or a null
-- column: the service's own. The logo's bytes live here (at most 256 KiB, checked before storing)
-- and are served by their SHA-256, so the address changes exactly when the image does.
create table team_branding (
  team_id text primary key references teams(id) on delete cascade,
  logo bytea,
  logo_type text check (logo_type in ('image/png', 'image/jpeg')),
  logo_sha256 text,
  logo_width integer,
  logo_height integer,
  brand_color text check (brand_color ~ '^#[0-9a-f]{6}$'),
  sender_name text,
  reply_to text,
  email_subject text,
  email_message text,
  timezone text,
  date_format text,
  language text,
  -- The envelope-wide recipient authentication a new envelope gets when its request names none.
  access_auth jsonb,
  action_auth jsonb,
  updated_at timestamptz not null default now(),
  check ((logo is null) = (logo_type is null) and (logo is null) = (logo_sha256 is null))
);
create index team_branding_logo on team_branding (logo_sha256) where logo_sha256 is not null;
`
