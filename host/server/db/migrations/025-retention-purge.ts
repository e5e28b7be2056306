export default `
-- Retention (docs/operations.md, "Retention and purge"): a team may keep its finished envelopes
-- (completed, rejected, cancelled) for a number of days after they finished; null keeps them.
alter table teams add column retention_days integer
  check (retention_days is null or retention_days between 1 and 36500);
-- When the envelope's files went and its personal data was redacted; its metadata stays.
alter table envelopes add column purged_at timestamptz;
create index envelopes_unpurged_finished on envelopes (team_id)
  where purged_at is null and status in ('COMPLETED', 'REJECTED', 'CANCELLED');
-- The purge deletes an envelope's events (their payloads name its recipients).
create index events_envelope on events (envelope_id);

-- A purged envelope's items keep their title and pages but name no file any more; the hashes of
-- the files they named stay (the evidence summary still lists them).
alter table envelope_items alter column document_data_id drop not null;
alter table envelope_items add column purged_sha256 text;
alter table envelope_items add column purged_sealed_sha256 text;
create or replace function envelope_items_frozen() returns trigger language plpgsql as $$
declare
  envelope text := case when tg_op = 'INSERT' then new.envelope_id else old.envelope_id end;
  sent boolean := exists (select 1 from envelopes e where e.id = envelope and e.status <> 'DRAFT');
  files constant text[] := array['document_data_id', 'signed_document_data_id', 'purged_sha256', 'purged_sealed_sha256'];
begin
  if tg_op = 'UPDATE' then
    -- The purge lets go of an item's files (and records their hashes once), nothing else, and
    -- only once its envelope is marked purged.
    if (to_jsonb(new) - files) = (to_jsonb(old) - files)
       and (new.document_data_id is null or new.document_data_id = old.document_data_id)
       and (new.signed_document_data_id is null or new.signed_document_data_id = old.signed_document_data_id)
       and (old.purged_sha256 is null or new.purged_sha256 is not distinct from old.purged_sha256)
       and (old.purged_sealed_sha256 is null or new.purged_sealed_sha256 is not distinct from old.purged_sealed_sha256)
       and exists (select 1 from envelopes e where e.id = old.envelope_id and e.purged_at is not null) then
      return new;
    end if;
    if old.signed_document_data_id is not null and new.signed_document_data_id is distinct from old.signed_document_data_id then
      raise exception 'the sealed file of item % never changes', old.id using errcode = 'P0001';
    end if;
    if sent and (new.document_data_id is distinct from old.document_data_id or new.envelope_id <> old.envelope_id) then
      raise exception 'item % of a sent envelope keeps its file', old.id using errcode = 'P0001';
    end if;
    return new;
  end if;
  if sent then
    raise exception 'the items of sent envelope % cannot change', envelope using errcode = 'P0001';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end $$;

-- An audit entry still never changes, except by a redaction: its personal values (name, email,
-- ip_address, user_agent) set to null and its data replaced by the marker {"redacted": true},
-- every hash, the salt and every other column as they were, so the chain still holds.
create or replace function audit_logs_immutable() returns trigger language plpgsql as $$
declare
  personal constant text[] := array['name', 'email', 'ip_address', 'user_agent', 'data'];
begin
  if tg_op = 'UPDATE'
     and (to_jsonb(new) - personal) = (to_jsonb(old) - personal)
     and (new.name is null or new.name = old.name)
     and (new.email is null or new.email = old.email)
     and (new.ip_address is null or new.ip_address = old.ip_address)
     and (new.user_agent is null or new.user_agent = old.user_agent)
     and (new.data = old.data or new.data = '{"redacted": true}'::jsonb) then
    return new;
  end if;
  raise exception 'audit entry % never changes', old.id using errcode = 'P0001';
end $$;
`
