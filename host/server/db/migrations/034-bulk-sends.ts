export default `
-- A bulk send (domain/template/bulk-send.ts): one template, one document per row of a table. Each
-- row is its own unit of work: it is sent, and marked so, in one transaction, so a process that
-- dies halfway loses no row and sends none twice (the row's key is its bulk send and number).
create table bulk_sends (
  id text primary key,
  team_id text not null references teams (id) on delete cascade,
  template_id text not null references envelopes (id) on delete cascade,
  -- Who started it: the audit entries of its documents name them.
  actor jsonb not null,
  token_id text not null,
  status text not null default 'RUNNING' check (status in ('RUNNING', 'DONE')),
  total integer not null,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index bulk_sends_team on bulk_sends (team_id, created_at desc);

create table bulk_send_rows (
  bulk_send_id text not null references bulk_sends (id) on delete cascade,
  -- The row's number in the file as a spreadsheet shows it (the header is row 1).
  row_number integer not null,
  -- What the row gives the template: recipients, prefilled fields, title (useTemplate's input).
  input jsonb not null,
  status text not null default 'PENDING' check (status in ('PENDING', 'SENT', 'REFUSED')),
  envelope_id text references envelopes (id) on delete set null,
  reason text,
  primary key (bulk_send_id, row_number)
);
create index bulk_send_rows_pending on bulk_send_rows (bulk_send_id, row_number) where status = 'PENDING';
`
