export default `
-- Each team's live (not deleted) envelopes, counted as they are written, so that a list's total
-- costs the same at 10 envelopes and at 10 million (domain/envelope/lookup.ts listEnvelopes). Kept by
-- the trigger below in the transaction that writes the envelope: exact, never estimated.
create table envelope_counts (
  team_id text not null,
  type text not null,
  internal_version integer not null,
  n bigint not null default 0,
  primary key (team_id, type, internal_version)
);
create function envelope_counts_apply() returns trigger language plpgsql as $$
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
create trigger envelope_counts_apply after insert or delete or update of deleted_at, team_id, type, internal_version on envelopes
  for each row execute function envelope_counts_apply();
insert into envelope_counts (team_id, type, internal_version, n)
  select team_id, type, internal_version, count(*) from envelopes where deleted_at is null group by team_id, type, internal_version;
`
