export default `
-- An audit entry is redacted only as its envelope is purged (domain/retention/retention.ts): the redaction
-- form (personal values set to null, data replaced by {"redacted": true}, every hash kept) passes
-- only once the envelope is marked purged, so a live envelope's entries cannot be emptied quietly.
-- An update that changes nothing is no change.
create or replace function audit_logs_immutable() returns trigger language plpgsql as $$
declare
  personal constant text[] := array['name', 'email', 'ip_address', 'user_agent', 'data'];
begin
  if tg_op = 'UPDATE' and to_jsonb(new) = to_jsonb(old) then
    return new;
  end if;
  if tg_op = 'UPDATE'
     and (to_jsonb(new) - personal) = (to_jsonb(old) - personal)
     and (new.name is null or new.name = old.name)
     and (new.email is null or new.email = old.email)
     and (new.ip_address is null or new.ip_address = old.ip_address)
     and (new.user_agent is null or new.user_agent = old.user_agent)
     and (new.data = old.data or new.data = '{"redacted": true}'::jsonb) then
    if exists (select 1 from envelopes e where e.id = old.envelope_id and e.purged_at is not null) then
      return new;
    end if;
    raise exception 'audit entry % is redacted only once its envelope is purged', old.id using errcode = 'P0001';
  end if;
  raise exception 'audit entry % never changes', old.id using errcode = 'P0001';
end $$;

-- The mark that allows it is set once, on a finished document, and never moves or goes.
create function envelopes_purged_once() returns trigger language plpgsql as $$
begin
  if old.purged_at is not null or new.purged_at is null
     or new.type <> 'DOCUMENT' or new.status not in ('COMPLETED', 'REJECTED', 'CANCELLED') then
    raise exception 'envelope % is purged once, when finished, and stays purged', old.id using errcode = 'P0001';
  end if;
  return new;
end $$;
create trigger envelopes_purged_once before update of purged_at on envelopes
  for each row when (old.purged_at is distinct from new.purged_at) execute function envelopes_purged_once();

-- A webhook call logged after its event went (its envelope was purged while the delivery was under
-- way) keeps no body, as the purge leaves the calls already logged: the event, that it was
-- redacted, and the document it was about. The event row is locked while looked at, so a purge
-- deleting it meanwhile is waited for (domain/retention/purge-copies.ts deletes the events before it
-- redacts the calls already logged).
create function webhook_calls_of_purged() returns trigger language plpgsql as $$
declare
  sent jsonb;
begin
  perform 1 from events where id = new.event_id for key share;
  if not found then
    begin
      sent := new.request_body::jsonb;
    exception when others then
      sent := '{}';
    end;
    new.request_body := jsonb_build_object('event', new.event, 'redacted', true, 'payload',
      jsonb_build_object('envelopeId', sent->'payload'->'envelopeId', 'title', sent->'payload'->'title'))::text;
    new.response_body := null;
  end if;
  return new;
end $$;
create trigger webhook_calls_of_purged before insert on webhook_calls
  for each row execute function webhook_calls_of_purged();
`
