CREATE FUNCTION archive_renewal_extends() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION archive_renewals_kept() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  raise exception 'renewal % is kept as it is', old.id using errcode = 'P0001';
end $$;

CREATE TABLE audit_logs (
    id bigint NOT NULL,
    envelope_id text NOT NULL,
    team_id text NOT NULL,
    type text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    name text,
    email text,
    recipient_id integer,
    ip_address text,
    user_agent text,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    salt text NOT NULL,
    data_hash text NOT NULL,
    name_hash text,
    email_hash text,
    ip_address_hash text,
    user_agent_hash text,
    prev_hash text,
    hash text NOT NULL
);

CREATE FUNCTION audit_entry_hash(a audit_logs) RETURNS text
    LANGUAGE sql STABLE
    AS $$
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

CREATE FUNCTION audit_field_hash(salt text, value text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
  select case when value is null then null else encode(sha256(convert_to(salt || value, 'UTF8')), 'hex') end
$$;

CREATE FUNCTION audit_logs_chain() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION audit_logs_immutable() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE TABLE jobs (
    id bigint NOT NULL,
    kind text NOT NULL,
    payload jsonb NOT NULL,
    ordering_key text,
    run_at timestamp with time zone DEFAULT now() NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    locked_until timestamp with time zone,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    request_id text,
    CONSTRAINT jobs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'running'::text, 'done'::text, 'failed'::text])))
);

CREATE FUNCTION claim_jobs(due timestamp with time zone, lease_until timestamp with time zone, wanted integer, follow integer, skip text[], skip_teams text[], per_team integer, lane text[]) RETURNS SETOF jobs
    LANGUAGE sql
    SET enable_seqscan TO 'off'
    SET enable_bitmapscan TO 'off'
    SET enable_hashjoin TO 'off'
    SET enable_mergejoin TO 'off'
    SET jit TO 'off'
    AS $$
  with due_orders as materialized (
    select j.id, j.run_at, case when j.kind = any(lane) then null else job_team(j.payload) end as team from jobs j
    where j.status in ('pending', 'running') and j.run_at <= due and (j.status = 'pending' or j.locked_until <= due)
      and j.kind <> all(skip)
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
      and (cardinality(skip_teams) = 0 or j.kind = any(lane) or job_team(j.payload) is null or job_team(j.payload) <> all(skip_teams))
    order by j.run_at, j.id
    limit 2 * wanted),
  turns as materialized (
    select d.id, d.run_at, d.team, row_number() over (partition by d.team order by d.run_at, d.id) as turn from due_orders d),
  picked as materialized (
    select array(select t.id from turns t where t.team is null or t.turn <= per_team order by t.turn, t.run_at, t.id) as ids),
  heads as materialized (
    select j.id, j.ordering_key from jobs j
    where j.id = any((select ids from picked)::bigint[])
      -- Checked again on the row as locked; written so that only the primary key can find them.
      and j.status in ('pending', 'running') and j.run_at + interval '0 s' <= due and (j.status = 'pending' or j.locked_until <= due)
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
    order by array_position((select ids from picked), j.id)
    limit wanted
    for update of j skip locked)
  update jobs set status = 'running', attempts = attempts + 1, locked_until = lease_until
  where id = any(array(
    select id from heads
    union all
    select n.id from heads h cross join lateral (
      select s.id from (
        select n.id, bool_and(n.run_at <= due and (n.status = 'pending' or n.locked_until <= due)) over (order by n.id) as free
        from jobs n
        where n.ordering_key = h.ordering_key and n.id > h.id and n.status in ('pending', 'running')
        order by n.id
        limit follow) s
      where s.free) n
    where h.ordering_key is not null and follow > 0))
  returning *
$$;

CREATE FUNCTION document_data_immutable() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  raise exception 'stored file % never changes: write a new one', old.id using errcode = 'P0001';
end $$;

CREATE FUNCTION end_jobs(bigint[], integer[], text[], timestamp with time zone[], text[], timestamp with time zone[], boolean[]) RETURNS TABLE(kind text, ordering_key text, status text)
    LANGUAGE sql
    SET enable_seqscan TO 'off'
    SET enable_bitmapscan TO 'off'
    SET enable_sort TO 'off'
    SET enable_hashjoin TO 'off'
    SET enable_mergejoin TO 'off'
    AS $_$
  update jobs j set status = d.status, attempts = j.attempts - d.released::int, run_at = coalesce(d.run_at, j.run_at),
    locked_until = null, last_error = d.error, finished_at = d.finished_at
  from unnest($1, $2, $3, $4, $5, $6, $7) as d(id, attempts, status, run_at, error, finished_at, released)
  where j.id = d.id and j.attempts = d.attempts
  returning j.kind, j.ordering_key, d.status
$_$;

CREATE FUNCTION envelope_counts_apply() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  if tg_op = 'UPDATE' and (old.deleted_at is null) = (new.deleted_at is null) and old.team_id = new.team_id
     and old.type = new.type and old.internal_version = new.internal_version then
    return null;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
    insert into envelope_counts (team_id, type, internal_version, n) values (new.team_id, new.type, new.internal_version, 1)
    on conflict (team_id, type, internal_version) do update set n = envelope_counts.n + 1;
  end if;
  if tg_op in ('DELETE', 'UPDATE') and old.deleted_at is null then
    update envelope_counts set n = n - 1 where team_id = old.team_id and type = old.type and internal_version = old.internal_version;
  end if;
  return null;
end $$;

CREATE FUNCTION envelope_items_frozen() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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
    if old.signed_document_data_id is not null and new.signed_document_data_id is distinct from old.signed_document_data_id
        and not exists (select 1 from archive_renewals r where r.item_id = old.id
          and r.old_document_data_id = old.signed_document_data_id and r.new_document_data_id = new.signed_document_data_id) then
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

CREATE FUNCTION envelope_search_ids(team text, q tsquery) RETURNS SETOF text
    LANGUAGE sql STABLE
    SET enable_seqscan TO 'off'
    AS $$
  select id from envelopes where search @@ (quote_literal(team)::tsquery && q)
$$;

CREATE FUNCTION envelope_search_vector(envelope text, team text, title text, external_id text) RETURNS tsvector
    LANGUAGE sql STABLE
    AS $$
  select array_to_tsvector(array(
    select distinct w from unnest(
      array[team] || envelope_search_words(title) || envelope_search_words(external_id) ||
      coalesce((select array_agg(x) from recipients r, unnest(envelope_search_words(r.name) || envelope_search_words(r.email)) x
                where r.envelope_id = envelope), '{}')
    ) w where w <> ''))
$$;

CREATE FUNCTION envelope_search_words(t text) RETURNS text[]
    LANGUAGE sql IMMUTABLE
    AS $$
  select coalesce(array_remove(regexp_split_to_array(lower(t collate "C"), '[[:space:][:punct:]]+'), ''), '{}')
$$;

CREATE FUNCTION envelope_status_counts_apply() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  if tg_op = 'UPDATE' and (old.deleted_at is null) = (new.deleted_at is null) and old.team_id = new.team_id
     and old.type = new.type and old.internal_version = new.internal_version
     and old.status = new.status and old.visibility = new.visibility then
    return null;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
    insert into envelope_status_counts (team_id, type, internal_version, status, visibility, n)
      values (new.team_id, new.type, new.internal_version, new.status, new.visibility, 1)
    on conflict (team_id, type, internal_version, status, visibility) do update set n = envelope_status_counts.n + 1;
  end if;
  if tg_op in ('DELETE', 'UPDATE') and old.deleted_at is null then
    update envelope_status_counts set n = n - 1
      where team_id = old.team_id and type = old.type and internal_version = old.internal_version
        and status = old.status and visibility = old.visibility;
  end if;
  return null;
end $$;

CREATE FUNCTION envelopes_purged_once() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  if old.purged_at is not null or new.purged_at is null
     or new.type <> 'DOCUMENT' or new.status not in ('COMPLETED', 'REJECTED', 'CANCELLED') then
    raise exception 'envelope % is purged once, when finished, and stays purged', old.id using errcode = 'P0001';
  end if;
  return new;
end $$;

CREATE FUNCTION envelopes_search_own() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  new.search := envelope_search_vector(new.id, new.team_id, new.title, new.external_id);
  return new;
end $$;

CREATE FUNCTION job_team(payload jsonb) RETURNS text
    LANGUAGE sql STABLE
    AS $$
  select coalesce(payload->>'teamId', (select w.team_id from webhooks w where w.id = payload->>'webhookId'))
$$;

CREATE FUNCTION recipients_search_added() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  update envelopes e set search = envelope_search_vector(e.id, e.team_id, e.title, e.external_id)
    where e.id in (select distinct envelope_id from changed);
  return null;
end $$;

CREATE FUNCTION recipients_search_updated() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  update envelopes e set search = envelope_search_vector(e.id, e.team_id, e.title, e.external_id)
    where e.id in (new.envelope_id, old.envelope_id);
  return null;
end $$;

CREATE FUNCTION recipients_void_codes() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
  if new.email is distinct from old.email or new.token is distinct from old.token then
    update recipient_auth_codes set used_at = now() where recipient_id = new.id and used_at is null;
  end if;
  return null;
end $$;

CREATE FUNCTION webhook_calls_of_purged() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE TABLE account_links (
    id text NOT NULL,
    purpose text NOT NULL,
    email text NOT NULL,
    user_id text,
    invitation_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT account_links_purpose_check CHECK ((purpose = ANY (ARRAY['verify'::text, 'reset'::text, 'signin'::text, 'invite'::text])))
);

CREATE TABLE api_tokens (
    id text NOT NULL,
    team_id text NOT NULL,
    name text NOT NULL,
    token_hash text NOT NULL,
    expires_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text,
    last_used_at timestamp with time zone,
    role_ceiling text
);

CREATE TABLE archive_facts (
    document_data_id text NOT NULL,
    lta boolean NOT NULL,
    timestamp_at timestamp with time zone,
    tsa_valid_to timestamp with time zone,
    digests text[] DEFAULT '{}'::text[] NOT NULL,
    read_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE archive_renewals (
    id bigint NOT NULL,
    item_id text NOT NULL,
    old_document_data_id text NOT NULL,
    new_document_data_id text NOT NULL,
    old_sha256 text NOT NULL,
    new_sha256 text NOT NULL,
    timestamp_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE archive_renewals ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME archive_renewals_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE attachments (
    id text NOT NULL,
    envelope_id text NOT NULL,
    type text DEFAULT 'link'::text NOT NULL,
    label text NOT NULL,
    data text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE audit_logs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE audit_logs_id_seq OWNED BY audit_logs.id;

CREATE TABLE auth_challenges (
    id text NOT NULL,
    purpose text NOT NULL,
    user_id text,
    challenge text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    binding text
);

CREATE TABLE auth_throttle (
    key text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    failures integer NOT NULL
);

CREATE TABLE bulk_send_rows (
    bulk_send_id text NOT NULL,
    row_number integer NOT NULL,
    input jsonb NOT NULL,
    status text DEFAULT 'PENDING'::text NOT NULL,
    envelope_id text,
    reason text,
    CONSTRAINT bulk_send_rows_status_check CHECK ((status = ANY (ARRAY['PENDING'::text, 'SENT'::text, 'REFUSED'::text])))
);

CREATE TABLE bulk_sends (
    id text NOT NULL,
    team_id text NOT NULL,
    template_id text NOT NULL,
    actor jsonb NOT NULL,
    token_id text NOT NULL,
    status text DEFAULT 'RUNNING'::text NOT NULL,
    total integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT bulk_sends_status_check CHECK ((status = ANY (ARRAY['RUNNING'::text, 'DONE'::text])))
);

CREATE TABLE consent_disclosures (
    team_id text NOT NULL,
    version integer NOT NULL,
    text text,
    sha256 text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT consent_disclosures_version_check CHECK ((version > 0))
);

CREATE TABLE document_data (
    id text NOT NULL,
    bytes bytea,
    size integer NOT NULL,
    page_count integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    sha256 text NOT NULL,
    team_id text
);

CREATE TABLE envelope_counts (
    team_id text NOT NULL,
    type text NOT NULL,
    internal_version integer NOT NULL,
    n bigint DEFAULT 0 NOT NULL
);

CREATE TABLE envelope_items (
    id text NOT NULL,
    envelope_id text NOT NULL,
    title text NOT NULL,
    item_order integer NOT NULL,
    document_data_id text,
    page_count integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    signed_document_data_id text,
    purged_sha256 text,
    purged_sealed_sha256 text
);

CREATE TABLE envelope_status_counts (
    team_id text NOT NULL,
    type text NOT NULL,
    internal_version integer NOT NULL,
    status text NOT NULL,
    visibility text NOT NULL,
    n bigint DEFAULT 0 NOT NULL
);

CREATE TABLE envelopes (
    id text NOT NULL,
    team_id text NOT NULL,
    type text NOT NULL,
    secondary_number integer NOT NULL,
    internal_version integer DEFAULT 2 NOT NULL,
    status text NOT NULL,
    source text NOT NULL,
    visibility text NOT NULL,
    template_type text NOT NULL,
    external_id text,
    title text NOT NULL,
    document_meta jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    completed_at timestamp with time zone,
    deleted_at timestamp with time zone,
    template_id text,
    created_by text,
    auth_options jsonb,
    purged_at timestamp with time zone,
    search tsvector DEFAULT ''::tsvector NOT NULL,
    language_chosen boolean DEFAULT false NOT NULL,
    CONSTRAINT envelopes_type_check CHECK ((type = ANY (ARRAY['DOCUMENT'::text, 'TEMPLATE'::text])))
);

CREATE TABLE events (
    id integer NOT NULL,
    team_id text NOT NULL,
    event text NOT NULL,
    envelope_id text NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    delivered_at timestamp with time zone
);

CREATE SEQUENCE events_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE events_id_seq OWNED BY events.id;

CREATE TABLE fields (
    id integer NOT NULL,
    envelope_id text NOT NULL,
    envelope_item_id text NOT NULL,
    recipient_id integer NOT NULL,
    type text NOT NULL,
    page integer NOT NULL,
    position_x double precision NOT NULL,
    position_y double precision NOT NULL,
    width double precision NOT NULL,
    height double precision NOT NULL,
    field_meta jsonb,
    inserted boolean DEFAULT false NOT NULL,
    custom_text text,
    inserted_at timestamp with time zone
);

CREATE SEQUENCE fields_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE fields_id_seq OWNED BY fields.id;

CREATE SEQUENCE jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE jobs_id_seq OWNED BY jobs.id;

CREATE TABLE mails (
    id bigint NOT NULL,
    team_id text,
    envelope_id text,
    recipient_id integer,
    template text NOT NULL,
    to_address text NOT NULL,
    from_address text NOT NULL,
    subject text NOT NULL,
    html text NOT NULL,
    text text NOT NULL,
    attachments jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE mails_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE mails_id_seq OWNED BY mails.id;

CREATE TABLE passkeys (
    id text NOT NULL,
    user_id text NOT NULL,
    public_key bytea NOT NULL,
    counter bigint DEFAULT 0 NOT NULL,
    transports jsonb DEFAULT '[]'::jsonb NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone
);

CREATE TABLE rate_limit_counts (
    window_start bigint NOT NULL,
    key text NOT NULL,
    process text NOT NULL,
    n integer NOT NULL
);

CREATE TABLE recipient_auth_codes (
    id text NOT NULL,
    recipient_id integer NOT NULL,
    purpose text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    email text,
    binding text
);

CREATE TABLE recipients (
    id integer NOT NULL,
    envelope_id text NOT NULL,
    email text NOT NULL,
    name text NOT NULL,
    role text NOT NULL,
    token text NOT NULL,
    read_status text DEFAULT 'NOT_OPENED'::text NOT NULL,
    signing_status text DEFAULT 'NOT_SIGNED'::text NOT NULL,
    send_status text DEFAULT 'NOT_SENT'::text NOT NULL,
    signing_order integer,
    signed_at timestamp with time zone,
    rejection_reason text,
    document_deleted_at timestamp with time zone,
    expires_at timestamp with time zone,
    expiration_notified_at timestamp with time zone,
    auth_options jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE recipients_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE recipients_id_seq OWNED BY recipients.id;

CREATE TABLE recovery_codes (
    user_id text NOT NULL,
    code_hash text NOT NULL,
    used_at timestamp with time zone
);

CREATE TABLE schema_migrations (
    version integer NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE settings (
    key text NOT NULL,
    value text NOT NULL
);

CREATE TABLE team_activity (
    id bigint NOT NULL,
    team_id text NOT NULL,
    user_id text,
    action text NOT NULL,
    target text,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE team_activity_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE team_activity_id_seq OWNED BY team_activity.id;

CREATE TABLE team_branding (
    team_id text NOT NULL,
    logo bytea,
    logo_type text,
    logo_sha256 text,
    logo_width integer,
    logo_height integer,
    brand_color text,
    sender_name text,
    reply_to text,
    email_subject text,
    email_message text,
    timezone text,
    date_format text,
    language text,
    access_auth jsonb,
    action_auth jsonb,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT team_branding_brand_color_check CHECK ((brand_color ~ '^#[0-9a-f]{6}$'::text)),
    CONSTRAINT team_branding_check CHECK ((((logo IS NULL) = (logo_type IS NULL)) AND ((logo IS NULL) = (logo_sha256 IS NULL)))),
    CONSTRAINT team_branding_logo_type_check CHECK ((logo_type = ANY (ARRAY['image/png'::text, 'image/jpeg'::text])))
);

CREATE TABLE team_counters (
    team_id text NOT NULL,
    kind text NOT NULL,
    value integer NOT NULL
);

CREATE TABLE team_invitations (
    id text NOT NULL,
    team_id text NOT NULL,
    email text NOT NULL,
    role text NOT NULL,
    invited_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    accepted_at timestamp with time zone,
    revoked_at timestamp with time zone,
    CONSTRAINT team_invitations_role_check CHECK ((role = ANY (ARRAY['ADMIN'::text, 'MANAGER'::text, 'MEMBER'::text])))
);

CREATE TABLE team_members (
    team_id text NOT NULL,
    user_id text NOT NULL,
    role text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT team_members_role_check CHECK ((role = ANY (ARRAY['ADMIN'::text, 'MANAGER'::text, 'MEMBER'::text])))
);

CREATE TABLE team_usage (
    team_id text NOT NULL,
    month text NOT NULL,
    documents integer NOT NULL
);

CREATE TABLE teams (
    id text NOT NULL,
    name text NOT NULL,
    plan text NOT NULL,
    is_default boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    email text,
    number integer NOT NULL,
    embed_origins jsonb,
    retention_days integer,
    CONSTRAINT teams_plan_check CHECK ((plan = ANY (ARRAY['free'::text, 'individual'::text, 'team'::text, 'enterprise'::text]))),
    CONSTRAINT teams_retention_days_check CHECK (((retention_days IS NULL) OR ((retention_days >= 1) AND (retention_days <= 36500))))
);

CREATE SEQUENCE teams_number_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE teams_number_seq OWNED BY teams.number;

CREATE TABLE template_direct_links (
    id text NOT NULL,
    envelope_id text NOT NULL,
    token text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    recipient_id integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE user_sessions (
    id text NOT NULL,
    user_id text NOT NULL,
    token_hash text NOT NULL,
    team_id text,
    second_factor_due boolean DEFAULT false NOT NULL,
    user_agent text DEFAULT ''::text NOT NULL,
    ip text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    proved_at timestamp with time zone
);

CREATE TABLE users (
    id text NOT NULL,
    number integer NOT NULL,
    email text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    password_hash text,
    email_verified_at timestamp with time zone,
    totp_secret text,
    totp_enabled_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    totp_last_step bigint
);

CREATE SEQUENCE users_number_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE users_number_seq OWNED BY users.number;

CREATE TABLE webhook_calls (
    id text NOT NULL,
    webhook_id text NOT NULL,
    event_id integer NOT NULL,
    event text NOT NULL,
    attempt integer NOT NULL,
    url text NOT NULL,
    request_body text NOT NULL,
    response_status integer,
    response_body text,
    error text,
    duration_ms integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE webhooks (
    id text NOT NULL,
    team_id text NOT NULL,
    url text NOT NULL,
    events text[] NOT NULL,
    secret text DEFAULT ''::text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text,
    role_ceiling text,
    previous_secret text,
    previous_secret_until timestamp with time zone,
    signing_key text,
    previous_signing_key text,
    previous_signing_key_until timestamp with time zone,
    send_secret_header boolean DEFAULT true NOT NULL
);

ALTER TABLE ONLY audit_logs ALTER COLUMN id SET DEFAULT nextval('audit_logs_id_seq'::regclass);

ALTER TABLE ONLY events ALTER COLUMN id SET DEFAULT nextval('events_id_seq'::regclass);

ALTER TABLE ONLY fields ALTER COLUMN id SET DEFAULT nextval('fields_id_seq'::regclass);

ALTER TABLE ONLY jobs ALTER COLUMN id SET DEFAULT nextval('jobs_id_seq'::regclass);

ALTER TABLE ONLY mails ALTER COLUMN id SET DEFAULT nextval('mails_id_seq'::regclass);

ALTER TABLE ONLY recipients ALTER COLUMN id SET DEFAULT nextval('recipients_id_seq'::regclass);

ALTER TABLE ONLY team_activity ALTER COLUMN id SET DEFAULT nextval('team_activity_id_seq'::regclass);

ALTER TABLE ONLY teams ALTER COLUMN number SET DEFAULT nextval('teams_number_seq'::regclass);

ALTER TABLE ONLY users ALTER COLUMN number SET DEFAULT nextval('users_number_seq'::regclass);

ALTER TABLE ONLY account_links
    ADD CONSTRAINT account_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY api_tokens
    ADD CONSTRAINT api_tokens_pkey PRIMARY KEY (id);

ALTER TABLE ONLY api_tokens
    ADD CONSTRAINT api_tokens_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY archive_facts
    ADD CONSTRAINT archive_facts_pkey PRIMARY KEY (document_data_id);

ALTER TABLE ONLY archive_renewals
    ADD CONSTRAINT archive_renewals_pkey PRIMARY KEY (id);

ALTER TABLE ONLY attachments
    ADD CONSTRAINT attachments_pkey PRIMARY KEY (id);

ALTER TABLE ONLY audit_logs
    ADD CONSTRAINT audit_logs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY auth_challenges
    ADD CONSTRAINT auth_challenges_pkey PRIMARY KEY (id);

ALTER TABLE ONLY auth_throttle
    ADD CONSTRAINT auth_throttle_pkey PRIMARY KEY (key);

ALTER TABLE ONLY bulk_send_rows
    ADD CONSTRAINT bulk_send_rows_pkey PRIMARY KEY (bulk_send_id, row_number);

ALTER TABLE ONLY bulk_sends
    ADD CONSTRAINT bulk_sends_pkey PRIMARY KEY (id);

ALTER TABLE ONLY consent_disclosures
    ADD CONSTRAINT consent_disclosures_pkey PRIMARY KEY (team_id, version);

ALTER TABLE ONLY document_data
    ADD CONSTRAINT document_data_pkey PRIMARY KEY (id);

ALTER TABLE ONLY envelope_counts
    ADD CONSTRAINT envelope_counts_pkey PRIMARY KEY (team_id, type, internal_version);

ALTER TABLE ONLY envelope_items
    ADD CONSTRAINT envelope_items_pkey PRIMARY KEY (id);

ALTER TABLE ONLY envelope_status_counts
    ADD CONSTRAINT envelope_status_counts_pkey PRIMARY KEY (team_id, type, internal_version, status, visibility);

ALTER TABLE ONLY envelopes
    ADD CONSTRAINT envelopes_pkey PRIMARY KEY (id);

ALTER TABLE ONLY envelopes
    ADD CONSTRAINT envelopes_team_id_type_secondary_number_key UNIQUE (team_id, type, secondary_number);

ALTER TABLE ONLY events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY fields
    ADD CONSTRAINT fields_pkey PRIMARY KEY (id);

ALTER TABLE ONLY jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY mails
    ADD CONSTRAINT mails_pkey PRIMARY KEY (id);

ALTER TABLE ONLY passkeys
    ADD CONSTRAINT passkeys_pkey PRIMARY KEY (id);

ALTER TABLE ONLY rate_limit_counts
    ADD CONSTRAINT rate_limit_counts_pkey PRIMARY KEY (window_start, key, process);

ALTER TABLE ONLY recipient_auth_codes
    ADD CONSTRAINT recipient_auth_codes_pkey PRIMARY KEY (id);

ALTER TABLE ONLY recipients
    ADD CONSTRAINT recipients_pkey PRIMARY KEY (id);

ALTER TABLE ONLY recipients
    ADD CONSTRAINT recipients_token_key UNIQUE (token);

ALTER TABLE ONLY recovery_codes
    ADD CONSTRAINT recovery_codes_pkey PRIMARY KEY (user_id, code_hash);

ALTER TABLE ONLY schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);

ALTER TABLE ONLY settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (key);

ALTER TABLE ONLY team_activity
    ADD CONSTRAINT team_activity_pkey PRIMARY KEY (id);

ALTER TABLE ONLY team_branding
    ADD CONSTRAINT team_branding_pkey PRIMARY KEY (team_id);

ALTER TABLE ONLY team_counters
    ADD CONSTRAINT team_counters_pkey PRIMARY KEY (team_id, kind);

ALTER TABLE ONLY team_invitations
    ADD CONSTRAINT team_invitations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY team_members
    ADD CONSTRAINT team_members_pkey PRIMARY KEY (team_id, user_id);

ALTER TABLE ONLY team_usage
    ADD CONSTRAINT team_usage_pkey PRIMARY KEY (team_id, month);

ALTER TABLE ONLY teams
    ADD CONSTRAINT teams_pkey PRIMARY KEY (id);

ALTER TABLE ONLY template_direct_links
    ADD CONSTRAINT template_direct_links_envelope_id_key UNIQUE (envelope_id);

ALTER TABLE ONLY template_direct_links
    ADD CONSTRAINT template_direct_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY template_direct_links
    ADD CONSTRAINT template_direct_links_token_key UNIQUE (token);

ALTER TABLE ONLY user_sessions
    ADD CONSTRAINT user_sessions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY user_sessions
    ADD CONSTRAINT user_sessions_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY users
    ADD CONSTRAINT users_email_key UNIQUE (email);

ALTER TABLE ONLY users
    ADD CONSTRAINT users_number_key UNIQUE (number);

ALTER TABLE ONLY users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

ALTER TABLE ONLY webhook_calls
    ADD CONSTRAINT webhook_calls_pkey PRIMARY KEY (id);

ALTER TABLE ONLY webhooks
    ADD CONSTRAINT webhooks_pkey PRIMARY KEY (id);

CREATE INDEX account_links_email ON account_links USING btree (purpose, email);

CREATE INDEX archive_renewals_item ON archive_renewals USING btree (item_id, id);

CREATE INDEX archive_renewals_old ON archive_renewals USING btree (old_sha256);

CREATE INDEX attachments_envelope ON attachments USING btree (envelope_id);

CREATE UNIQUE INDEX audit_logs_chain_link ON audit_logs USING btree (envelope_id, COALESCE(prev_hash, ''::text));

CREATE INDEX audit_logs_envelope ON audit_logs USING btree (envelope_id, id);

CREATE INDEX auth_challenges_expiry ON auth_challenges USING btree (expires_at);

CREATE INDEX bulk_send_rows_pending ON bulk_send_rows USING btree (bulk_send_id, row_number) WHERE (status = 'PENDING'::text);

CREATE INDEX bulk_sends_team ON bulk_sends USING btree (team_id, created_at DESC);

CREATE INDEX document_data_sha256 ON document_data USING btree (sha256);

CREATE INDEX document_data_team_sha256 ON document_data USING btree (team_id, sha256);

CREATE INDEX envelope_items_envelope ON envelope_items USING btree (envelope_id);

CREATE INDEX envelopes_search ON envelopes USING gin (search) WITH (fastupdate=off);

CREATE INDEX envelopes_team_creator ON envelopes USING btree (team_id, created_by) WHERE (deleted_at IS NULL);

CREATE INDEX envelopes_team_list ON envelopes USING btree (team_id, created_at DESC, id DESC);

CREATE INDEX envelopes_unpurged_finished ON envelopes USING btree (team_id) WHERE ((purged_at IS NULL) AND (status = ANY (ARRAY['COMPLETED'::text, 'REJECTED'::text, 'CANCELLED'::text])));

CREATE INDEX events_envelope ON events USING btree (envelope_id);

CREATE INDEX events_undelivered ON events USING btree (created_at) WHERE (delivered_at IS NULL);

CREATE INDEX fields_envelope ON fields USING btree (envelope_id);

CREATE INDEX jobs_done ON jobs USING btree (finished_at) WHERE (status = 'done'::text);

CREATE INDEX jobs_due ON jobs USING btree (run_at, id) WHERE (status = ANY (ARRAY['pending'::text, 'running'::text]));

CREATE INDEX jobs_ordering ON jobs USING btree (ordering_key, id) WHERE ((status = ANY (ARRAY['pending'::text, 'running'::text])) AND (ordering_key IS NOT NULL));

CREATE INDEX passkeys_user ON passkeys USING btree (user_id);

CREATE INDEX recipient_auth_codes_binding ON recipient_auth_codes USING btree (binding, created_at);

CREATE INDEX recipient_auth_codes_recipient ON recipient_auth_codes USING btree (recipient_id, purpose, created_at);

CREATE INDEX recipients_envelope ON recipients USING btree (envelope_id);

CREATE INDEX team_activity_team ON team_activity USING btree (team_id, id DESC);

CREATE INDEX team_branding_logo ON team_branding USING btree (logo_sha256) WHERE (logo_sha256 IS NOT NULL);

CREATE INDEX team_invitations_team ON team_invitations USING btree (team_id, created_at DESC);

CREATE INDEX team_members_user ON team_members USING btree (user_id);

CREATE UNIQUE INDEX teams_number ON teams USING btree (number);

CREATE UNIQUE INDEX teams_one_default ON teams USING btree (is_default) WHERE is_default;

CREATE INDEX user_sessions_user ON user_sessions USING btree (user_id);

CREATE INDEX webhook_calls_created ON webhook_calls USING btree (created_at);

CREATE INDEX webhook_calls_webhook ON webhook_calls USING btree (webhook_id, created_at DESC, id);

CREATE INDEX webhooks_team ON webhooks USING btree (team_id);

CREATE TRIGGER archive_renewal_extends BEFORE INSERT ON archive_renewals FOR EACH ROW EXECUTE FUNCTION archive_renewal_extends();

CREATE TRIGGER archive_renewals_kept BEFORE DELETE OR UPDATE ON archive_renewals FOR EACH ROW EXECUTE FUNCTION archive_renewals_kept();

CREATE TRIGGER audit_logs_chain BEFORE INSERT ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_chain();

CREATE TRIGGER audit_logs_immutable BEFORE DELETE OR UPDATE ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_immutable();

CREATE TRIGGER document_data_immutable BEFORE UPDATE ON document_data FOR EACH ROW EXECUTE FUNCTION document_data_immutable();

CREATE TRIGGER envelope_counts_apply AFTER INSERT OR DELETE OR UPDATE OF deleted_at, team_id, type, internal_version ON envelopes FOR EACH ROW EXECUTE FUNCTION envelope_counts_apply();

CREATE TRIGGER envelope_items_frozen BEFORE INSERT OR DELETE OR UPDATE ON envelope_items FOR EACH ROW EXECUTE FUNCTION envelope_items_frozen();

CREATE TRIGGER envelope_status_counts_apply AFTER INSERT OR DELETE OR UPDATE OF deleted_at, team_id, type, internal_version, status, visibility ON envelopes FOR EACH ROW EXECUTE FUNCTION envelope_status_counts_apply();

CREATE TRIGGER envelopes_purged_once BEFORE UPDATE OF purged_at ON envelopes FOR EACH ROW WHEN ((old.purged_at IS DISTINCT FROM new.purged_at)) EXECUTE FUNCTION envelopes_purged_once();

CREATE TRIGGER envelopes_search_own BEFORE INSERT OR UPDATE OF team_id, title, external_id ON envelopes FOR EACH ROW EXECUTE FUNCTION envelopes_search_own();

CREATE TRIGGER recipients_search_deleted AFTER DELETE ON recipients REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipients_search_added();

CREATE TRIGGER recipients_search_inserted AFTER INSERT ON recipients REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipients_search_added();

CREATE TRIGGER recipients_search_updated AFTER UPDATE OF name, email, envelope_id ON recipients FOR EACH ROW EXECUTE FUNCTION recipients_search_updated();

CREATE TRIGGER recipients_void_codes AFTER UPDATE OF email, token ON recipients FOR EACH ROW EXECUTE FUNCTION recipients_void_codes();

CREATE TRIGGER webhook_calls_of_purged BEFORE INSERT ON webhook_calls FOR EACH ROW EXECUTE FUNCTION webhook_calls_of_purged();

ALTER TABLE ONLY account_links
    ADD CONSTRAINT account_links_invitation_id_fkey FOREIGN KEY (invitation_id) REFERENCES team_invitations(id) ON DELETE CASCADE;

ALTER TABLE ONLY account_links
    ADD CONSTRAINT account_links_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY api_tokens
    ADD CONSTRAINT api_tokens_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE ONLY api_tokens
    ADD CONSTRAINT api_tokens_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY archive_facts
    ADD CONSTRAINT archive_facts_document_data_id_fkey FOREIGN KEY (document_data_id) REFERENCES document_data(id) ON DELETE CASCADE;

ALTER TABLE ONLY archive_renewals
    ADD CONSTRAINT archive_renewals_item_id_fkey FOREIGN KEY (item_id) REFERENCES envelope_items(id);

ALTER TABLE ONLY attachments
    ADD CONSTRAINT attachments_envelope_id_fkey FOREIGN KEY (envelope_id) REFERENCES envelopes(id) ON DELETE CASCADE;

ALTER TABLE ONLY auth_challenges
    ADD CONSTRAINT auth_challenges_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY bulk_send_rows
    ADD CONSTRAINT bulk_send_rows_bulk_send_id_fkey FOREIGN KEY (bulk_send_id) REFERENCES bulk_sends(id) ON DELETE CASCADE;

ALTER TABLE ONLY bulk_send_rows
    ADD CONSTRAINT bulk_send_rows_envelope_id_fkey FOREIGN KEY (envelope_id) REFERENCES envelopes(id) ON DELETE SET NULL;

ALTER TABLE ONLY bulk_sends
    ADD CONSTRAINT bulk_sends_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY bulk_sends
    ADD CONSTRAINT bulk_sends_template_id_fkey FOREIGN KEY (template_id) REFERENCES envelopes(id) ON DELETE CASCADE;

ALTER TABLE ONLY consent_disclosures
    ADD CONSTRAINT consent_disclosures_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY envelope_items
    ADD CONSTRAINT envelope_items_document_data_id_fkey FOREIGN KEY (document_data_id) REFERENCES document_data(id);

ALTER TABLE ONLY envelope_items
    ADD CONSTRAINT envelope_items_envelope_id_fkey FOREIGN KEY (envelope_id) REFERENCES envelopes(id) ON DELETE CASCADE;

ALTER TABLE ONLY envelope_items
    ADD CONSTRAINT envelope_items_signed_document_data_id_fkey FOREIGN KEY (signed_document_data_id) REFERENCES document_data(id);

ALTER TABLE ONLY envelopes
    ADD CONSTRAINT envelopes_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE ONLY envelopes
    ADD CONSTRAINT envelopes_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY fields
    ADD CONSTRAINT fields_envelope_id_fkey FOREIGN KEY (envelope_id) REFERENCES envelopes(id) ON DELETE CASCADE;

ALTER TABLE ONLY fields
    ADD CONSTRAINT fields_envelope_item_id_fkey FOREIGN KEY (envelope_item_id) REFERENCES envelope_items(id) ON DELETE CASCADE;

ALTER TABLE ONLY fields
    ADD CONSTRAINT fields_recipient_id_fkey FOREIGN KEY (recipient_id) REFERENCES recipients(id) ON DELETE CASCADE;

ALTER TABLE ONLY passkeys
    ADD CONSTRAINT passkeys_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY recipient_auth_codes
    ADD CONSTRAINT recipient_auth_codes_recipient_id_fkey FOREIGN KEY (recipient_id) REFERENCES recipients(id) ON DELETE CASCADE;

ALTER TABLE ONLY recipients
    ADD CONSTRAINT recipients_envelope_id_fkey FOREIGN KEY (envelope_id) REFERENCES envelopes(id) ON DELETE CASCADE;

ALTER TABLE ONLY recovery_codes
    ADD CONSTRAINT recovery_codes_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY team_activity
    ADD CONSTRAINT team_activity_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY team_activity
    ADD CONSTRAINT team_activity_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE ONLY team_branding
    ADD CONSTRAINT team_branding_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY team_counters
    ADD CONSTRAINT team_counters_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY team_invitations
    ADD CONSTRAINT team_invitations_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE ONLY team_invitations
    ADD CONSTRAINT team_invitations_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY team_members
    ADD CONSTRAINT team_members_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY team_members
    ADD CONSTRAINT team_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY team_usage
    ADD CONSTRAINT team_usage_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;

ALTER TABLE ONLY template_direct_links
    ADD CONSTRAINT template_direct_links_envelope_id_fkey FOREIGN KEY (envelope_id) REFERENCES envelopes(id) ON DELETE CASCADE;

ALTER TABLE ONLY template_direct_links
    ADD CONSTRAINT template_direct_links_recipient_id_fkey FOREIGN KEY (recipient_id) REFERENCES recipients(id) ON DELETE CASCADE;

ALTER TABLE ONLY user_sessions
    ADD CONSTRAINT user_sessions_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE SET NULL;

ALTER TABLE ONLY user_sessions
    ADD CONSTRAINT user_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY webhook_calls
    ADD CONSTRAINT webhook_calls_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES webhooks(id) ON DELETE CASCADE;

ALTER TABLE ONLY webhooks
    ADD CONSTRAINT webhooks_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE ONLY webhooks
    ADD CONSTRAINT webhooks_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams(id) ON DELETE CASCADE;
