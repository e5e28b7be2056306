export default `
-- Archives that stay valid (docs/sealing.md). What decides when a sealed B-LTA file needs a new
-- document timestamp, read once per stored file (a file never changes): lta is false for any other
-- file, which is then never read again.
create table archive_facts (
  document_data_id text primary key references document_data (id) on delete cascade,
  lta boolean not null,
  timestamp_at timestamptz,
  tsa_valid_to timestamptz,
  digests text[] not null default '{}',
  read_at timestamptz not null default now()
);

-- Each renewal: the item's served sealed file moved from the old file to the new one, which is the
-- old one with one incremental update appended. Both files are kept; a renewal is never changed.
-- The files are named by id and by hash: the hashes stay when a team's retention purges the files.
create table archive_renewals (
  id bigint generated always as identity primary key,
  item_id text not null references envelope_items (id),
  old_document_data_id text not null,
  new_document_data_id text not null,
  old_sha256 text not null,
  new_sha256 text not null,
  timestamp_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index archive_renewals_item on archive_renewals (item_id, id);
create index archive_renewals_old on archive_renewals (old_sha256);

-- A renewal names the item's served file as the old one, and a longer new one that begins with the
-- old one's bytes exactly (checked here when both rows hold their bytes; files in an object store
-- are checked by the host before it writes, domain/evidence/archive-renewal.ts).
create function archive_renewal_extends() returns trigger language plpgsql as $$
declare
  o record;
  n record;
begin
  select sha256, size, bytes into o from document_data where id = new.old_document_data_id;
  select sha256, size, bytes into n from document_data where id = new.new_document_data_id;
  if o.sha256 is distinct from new.old_sha256 or n.sha256 is distinct from new.new_sha256 then
    raise exception 'a renewal names its files by their hashes' using errcode = 'P0001';
  end if;
  if not exists (select 1 from envelope_items i where i.id = new.item_id and i.signed_document_data_id = new.old_document_data_id) then
    raise exception 'file % is not the sealed file item % serves', new.old_document_data_id, new.item_id using errcode = 'P0001';
  end if;
  if n.size <= o.size or (o.bytes is not null and n.bytes is not null
      and substring(n.bytes from 1 for octet_length(o.bytes)) <> o.bytes) then
    raise exception 'the renewed file % does not begin with the bytes of %', new.new_document_data_id, new.old_document_data_id using errcode = 'P0001';
  end if;
  return new;
end $$;
create trigger archive_renewal_extends before insert on archive_renewals
  for each row execute function archive_renewal_extends();

create function archive_renewals_kept() returns trigger language plpgsql as $$
begin
  raise exception 'renewal % is kept as it is', old.id using errcode = 'P0001';
end $$;
create trigger archive_renewals_kept before update or delete on archive_renewals
  for each row execute function archive_renewals_kept();

-- The guard of envelope_items_frozen() (migration 8, and any later version of it) gains one
-- exception: an item's sealed file may move to its renewal (a row of archive_renewals from exactly
-- that file to exactly this one). The function is extended where it stands, whatever else it
-- checks (migrations run by version: after any earlier one that replaced it).
do $$
declare
  def text := pg_get_functiondef('envelope_items_frozen()'::regprocedure);
  guard constant text := 'if old.signed_document_data_id is not null and new.signed_document_data_id is distinct from old.signed_document_data_id then';
begin
  if position(guard in def) = 0 then
    raise exception 'envelope_items_frozen() has no sealed-file guard to extend';
  end if;
  execute replace(def, guard, 'if old.signed_document_data_id is not null and new.signed_document_data_id is distinct from old.signed_document_data_id
        and not exists (select 1 from archive_renewals r where r.item_id = old.id
          and r.old_document_data_id = old.signed_document_data_id and r.new_document_data_id = new.signed_document_data_id) then');
end $$;
`
