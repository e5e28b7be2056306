export default `
-- A team's disclosure for consent to sign electronically (docs/consent.md), versioned: each change
-- is a new row. No row: version 0, the default text of the signing page's language. A row with no
-- text puts the default back. sha256 is the hex SHA-256 of the UTF-8 text the signer is shown.
create table consent_disclosures (
  team_id text not null references teams(id) on delete cascade,
  version integer not null check (version > 0),
  text text,
  sha256 text,
  created_at timestamptz not null default now(),
  primary key (team_id, version)
);
`
