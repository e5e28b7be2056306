export default `
-- The audit log is a hash chain per envelope (docs/sealing.md, "The audit log"). Each entry keeps
-- a random salt, a salted SHA-256 of each field that may hold personal data (so a later redaction
-- can drop the value and keep its hash), the hash of the entry before it and its own hash.
alter table audit_logs add column salt text;
alter table audit_logs add column data_hash text;
alter table audit_logs add column name_hash text;
alter table audit_logs add column email_hash text;
alter table audit_logs add column ip_address_hash text;
alter table audit_logs add column user_agent_hash text;
alter table audit_logs add column prev_hash text;
alter table audit_logs add column hash text;

-- A field's hash: SHA-256 of salt and value, in hex; an absent value has none.
create function audit_field_hash(salt text, value text) returns text language sql immutable as $$
  select case when value is null then null else encode(sha256(convert_to(salt || value, 'UTF8')), 'hex') end
$$;

-- An entry's hash: SHA-256 of the JSON array (no spaces) of its chained fields, all strings or
-- null, in this order. host/server/domain/evidence/audit-chain.ts computes the same to check it.
create function audit_entry_hash(a audit_logs) returns text language sql stable as $$
  select encode(sha256(convert_to('[' || concat_ws(',',
    '"audit-chain/1"',
    coalesce(to_json(a.prev_hash)::text, 'null'),
    coalesce(to_json(a.id::text)::text, 'null'),
    coalesce(to_json(a.envelope_id)::text, 'null'),
    coalesce(to_json(a.team_id)::text, 'null'),
    coalesce(to_json(a.type)::text, 'null'),
    coalesce(to_json(to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))::text, 'null'),
    coalesce(to_json(a.recipient_id::text)::text, 'null'),
    coalesce(to_json(a.data_hash)::text, 'null'),
    coalesce(to_json(a.name_hash)::text, 'null'),
    coalesce(to_json(a.email_hash)::text, 'null'),
    coalesce(to_json(a.ip_address_hash)::text, 'null'),
    coalesce(to_json(a.user_agent_hash)::text, 'null')
  ) || ']', 'UTF8')), 'hex')
$$;

-- The entries written before the chain are chained now, per envelope in the order of their ids.
do $$
declare
  r record;
  prev text;
  env text;
begin
  for r in select id, envelope_id from audit_logs order by envelope_id, id loop
    if env is distinct from r.envelope_id then
      prev := null;
      env := r.envelope_id;
    end if;
    update audit_logs set salt = replace(gen_random_uuid()::text, '-', ''), prev_hash = prev where id = r.id;
    update audit_logs set data_hash = audit_field_hash(salt, data::text), name_hash = audit_field_hash(salt, name),
      email_hash = audit_field_hash(salt, email), ip_address_hash = audit_field_hash(salt, ip_address),
      user_agent_hash = audit_field_hash(salt, user_agent) where id = r.id;
    update audit_logs a set hash = audit_entry_hash(a) where id = r.id returning hash into prev;
  end loop;
end $$;
alter table audit_logs alter column salt set not null;
alter table audit_logs alter column data_hash set not null;
alter table audit_logs alter column hash set not null;
-- One successor per entry: the chain cannot fork.
create unique index audit_logs_chain_link on audit_logs (envelope_id, coalesce(prev_hash, ''));

-- Every writer is chained here, whatever statement inserts. Writers to one envelope take turns
-- until they commit, and the id is drawn only then, so the order of ids is the chain's order.
create function audit_logs_chain() returns trigger language plpgsql as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('audit_logs:' || new.envelope_id, 0));
  new.id := nextval('audit_logs_id_seq');
  new.salt := replace(gen_random_uuid()::text, '-', '');
  new.data_hash := audit_field_hash(new.salt, new.data::text);
  new.name_hash := audit_field_hash(new.salt, new.name);
  new.email_hash := audit_field_hash(new.salt, new.email);
  new.ip_address_hash := audit_field_hash(new.salt, new.ip_address);
  new.user_agent_hash := audit_field_hash(new.salt, new.user_agent);
  new.prev_hash := (select hash from audit_logs where envelope_id = new.envelope_id order by id desc limit 1);
  new.hash := audit_entry_hash(new);
  return new;
end $$;
create trigger audit_logs_chain before insert on audit_logs
  for each row execute function audit_logs_chain();

-- An entry never changes and is never removed once written.
create function audit_logs_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'audit entry % never changes', old.id using errcode = 'P0001';
end $$;
create trigger audit_logs_immutable before update or delete on audit_logs
  for each row execute function audit_logs_immutable();
`
