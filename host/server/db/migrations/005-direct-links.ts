export default `
-- A template's public link (envelope source TEMPLATE_DIRECT_LINK): whoever holds the token signs as
-- the template's direct recipient, and a document is made from the template for them.
create table template_direct_links (
  id text primary key,
  envelope_id text not null unique references envelopes (id) on delete cascade,
  token text not null unique,
  enabled boolean not null default true,
  recipient_id integer not null references recipients (id) on delete cascade,
  created_at timestamptz not null default now()
);
`
