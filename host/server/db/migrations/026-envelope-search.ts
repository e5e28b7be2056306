export default `
-- Full-text search over an envelope's title, external id and its recipients' names and e-mail
-- addresses (GET /envelope?query=, domain/envelope/lookup.ts listEnvelopes), so that a search reads its
-- matches through an index rather than every envelope of the team. Words are what lies between
-- ASCII spaces and punctuation, lowercased in ASCII (as ILIKE did under the C collation), and used
-- as lexemes as they are: no stemming, no stop words, no language, the same on PGlite and on a
-- server whatever its locale. The query side splits and lowercases the same way (searchQuery).
-- The team's id is a lexeme too (no word holds its underscore): a search asks the index for the
-- team's matches only.
create function envelope_search_words(t text) returns text[] language sql immutable as $$
  select coalesce(array_remove(regexp_split_to_array(lower(t collate "C"), '[[:space:][:punct:]]+'), ''), '{}')
$$;
create function envelope_search_vector(envelope text, team text, title text, external_id text) returns tsvector language sql stable as $$
  select array_to_tsvector(array(
    select distinct w from unnest(
      array[team] || envelope_search_words(title) || envelope_search_words(external_id) ||
      coalesce((select array_agg(x) from recipients r, unnest(envelope_search_words(r.name) || envelope_search_words(r.email)) x
                where r.envelope_id = envelope), '{}')
    ) w where w <> ''))
$$;
alter table envelopes add column search tsvector not null default ''::tsvector;
-- Kept in the transaction that writes the envelope or its recipients.
create function envelopes_search_own() returns trigger language plpgsql as $$
begin
  new.search := envelope_search_vector(new.id, new.team_id, new.title, new.external_id);
  return new;
end $$;
create trigger envelopes_search_own before insert or update of team_id, title, external_id on envelopes
  for each row execute function envelopes_search_own();
create function recipients_search_added() returns trigger language plpgsql as $$
begin
  update envelopes e set search = envelope_search_vector(e.id, e.team_id, e.title, e.external_id)
    where e.id in (select distinct envelope_id from changed);
  return null;
end $$;
create trigger recipients_search_inserted after insert on recipients referencing new table as changed
  for each statement execute function recipients_search_added();
create trigger recipients_search_deleted after delete on recipients referencing old table as changed
  for each statement execute function recipients_search_added();
create function recipients_search_updated() returns trigger language plpgsql as $$
begin
  update envelopes e set search = envelope_search_vector(e.id, e.team_id, e.title, e.external_id)
    where e.id in (new.envelope_id, old.envelope_id);
  return null;
end $$;
create trigger recipients_search_updated after update of name, email, envelope_id on recipients
  for each row execute function recipients_search_updated();
update envelopes e set search = envelope_search_vector(e.id, e.team_id, e.title, e.external_id);
-- Without fastupdate: entries go straight into the index rather than into a pending list that
-- every search reads until a vacuum merges it (the embedded database has no autovacuum).
create index envelopes_search on envelopes using gin (search) with (fastupdate = off);
-- A team's envelopes matching a search (the caller keeps the live ones it may see), read through
-- that index alone: the team's lexeme and the search's words, merged in the index, which skips
-- ahead by the rarest of them. The planner, told that a common word (an e-mail domain,
-- "contract") or the team itself matches most rows, would rather test every envelope of the team:
-- here it may not scan the table, and no other index answers the condition.
create function envelope_search_ids(team text, q tsquery) returns setof text language sql stable
  set enable_seqscan = off
as $$
  select id from envelopes where search @@ (quote_literal(team)::tsquery && q)
$$;
-- The console's status tabs and a member's totals: each team's live envelopes by type, version,
-- status and visibility, kept like envelope_counts (migration 13) in the transaction that writes the
-- envelope, so a member's counts are a few rows, plus their own envelopes above their role's reach
-- (envelopes_team_creator).
create table envelope_status_counts (
  team_id text not null,
  type text not null,
  internal_version integer not null,
  status text not null,
  visibility text not null,
  n bigint not null default 0,
  primary key (team_id, type, internal_version, status, visibility)
);
create function envelope_status_counts_apply() returns trigger language plpgsql as $$
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
create trigger envelope_status_counts_apply
  after insert or delete or update of deleted_at, team_id, type, internal_version, status, visibility on envelopes
  for each row execute function envelope_status_counts_apply();
insert into envelope_status_counts (team_id, type, internal_version, status, visibility, n)
  select team_id, type, internal_version, status, visibility, count(*) from envelopes where deleted_at is null
  group by team_id, type, internal_version, status, visibility;
create index envelopes_team_creator on envelopes (team_id, created_by) where deleted_at is null;
`
