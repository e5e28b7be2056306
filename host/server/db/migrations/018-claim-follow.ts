export default `
-- The claim also takes, with each ordered job it claims, up to \`follow\` of the jobs that come next in
-- its order (due and free, up to the first that is not), which the claiming process then runs one
-- after another: an order's jobs no longer wait for a claim each (jobs/queue.ts). They are reached
-- only through their first job, which the claim locks, so no other claim can take them meanwhile.
-- It takes none of the kinds in \`skip\` (those of which the process holds as many as their limit).
drop function claim_jobs(timestamptz, timestamptz, integer);
create function claim_jobs(due timestamptz, lease_until timestamptz, wanted integer, follow integer, skip text[]) returns setof jobs
language sql
set enable_seqscan = off set enable_bitmapscan = off set enable_sort = off set enable_hashjoin = off set enable_mergejoin = off
as $$
  with heads as materialized (
    select j.id, j.ordering_key from jobs j
    where j.status in ('pending', 'running') and j.run_at <= due and (j.status = 'pending' or j.locked_until <= due)
      and j.kind <> all(skip)
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
    order by j.run_at, j.id
    limit wanted
    for update skip locked)
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
