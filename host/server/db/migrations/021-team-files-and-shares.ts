export default `
-- A stored file is shared only within its team (domain/item/files.ts): whether another team stored the
-- same bytes must not show in a file's id. Files stored so far have no team and are never found
-- again by an upload; the object store still keeps one object per hash underneath.
alter table document_data add column team_id text;
create index document_data_team_sha256 on document_data (team_id, sha256);

-- Each team a fair share of a process's slots (jobs/queue.ts): outside the kinds of \`lane\` (e-mail,
-- which has slots of its own), the claim takes none of the teams in \`skip_teams\` (those that hold
-- their share in the claiming process) and at most \`per_team\` orders of any one team, taking the
-- teams in turns: the first due order of each team, then the second... over the first 2 x \`wanted\`
-- due orders. A job's team is its payload's teamId, or its webhook's team. The candidates are read
-- first without locks, then locked through the primary key and checked again as locked.
drop function claim_jobs(timestamptz, timestamptz, integer, integer, text[]);
create function job_team(payload jsonb) returns text language sql stable as $$
  select coalesce(payload->>'teamId', (select w.team_id from webhooks w where w.id = payload->>'webhookId'))
$$;
create function claim_jobs(due timestamptz, lease_until timestamptz, wanted integer, follow integer, skip text[], skip_teams text[], per_team integer, lane text[])
returns setof jobs
language sql
set enable_seqscan = off set enable_bitmapscan = off set enable_hashjoin = off set enable_mergejoin = off set jit = off
as $$
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
`
