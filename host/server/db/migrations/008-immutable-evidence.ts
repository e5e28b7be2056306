export default `
-- Evidence is immutable (docs/security.md, "Immutable evidence"). A file is addressed by its
-- SHA-256: identical bytes share one row, and a row never changes once written.
alter table document_data add column sha256 text;
update document_data set sha256 = encode(sha256(bytes), 'hex');
alter table document_data alter column sha256 set not null;
create index document_data_sha256 on document_data (sha256);

create function document_data_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'stored file % never changes: write a new one', old.id using errcode = 'P0001';
end $$;
create trigger document_data_immutable before update on document_data
  for each row execute function document_data_immutable();

-- An item of an envelope that left DRAFT (sent, completed, rejected, cancelled) keeps its file
-- and its place for good; its sealed file, once set, too. A draft's items change freely, and
-- deleting the envelope itself (a pending document's hard delete) takes its items along.
create function envelope_items_frozen() returns trigger language plpgsql as $$
declare
  envelope text := case when tg_op = 'INSERT' then new.envelope_id else old.envelope_id end;
  sent boolean := exists (select 1 from envelopes e where e.id = envelope and e.status <> 'DRAFT');
begin
  if tg_op = 'UPDATE' then
    if old.signed_document_data_id is not null and new.signed_document_data_id is distinct from old.signed_document_data_id then
      raise exception 'the sealed file of item % never changes', old.id using errcode = 'P0001';
    end if;
    if sent and (new.document_data_id <> old.document_data_id or new.envelope_id <> old.envelope_id) then
      raise exception 'item % of a sent envelope keeps its file', old.id using errcode = 'P0001';
    end if;
    return new;
  end if;
  if sent then
    raise exception 'the items of sent envelope % cannot change', envelope using errcode = 'P0001';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end $$;
create trigger envelope_items_frozen before insert or update or delete on envelope_items
  for each row execute function envelope_items_frozen();
`
