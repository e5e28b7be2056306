export default `
-- The queue's claim and its ends (jobs/queue.ts, jobs/ends.ts), planned to walk the indexes whatever
-- the statistics say: a burst of jobs arrives faster than statistics follow, and planned for the
-- small table the statistics described, a claim read and sorted every pending job (10x the cost at
-- 2,000 pending) and an end read the whole table. The settings hold only while each function runs.
create function claim_jobs(due timestamptz, lease_until timestamptz, wanted integer) returns setof jobs
language sql
set enable_seqscan = off set enable_bitmapscan = off set enable_sort = off set enable_hashjoin = off set enable_mergejoin = off
as $$
  update jobs set status = 'running', attempts = attempts + 1, locked_until = lease_until
  where id = any(array(
    select j.id from jobs j
    where j.status in ('pending', 'running') and j.run_at <= due and (j.status = 'pending' or j.locked_until <= due)
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
    order by j.run_at, j.id
    limit wanted
    for update skip locked))
  returning *
$$;

-- Records the ends of attempts (the arrays in step); only the holder of an attempt may: its count
-- must still match. Answers the kind, order and new status of each job it ended.
create function end_jobs(bigint[], integer[], text[], timestamptz[], text[], timestamptz[], boolean[])
returns table (kind text, ordering_key text, status text)
language sql
set enable_seqscan = off set enable_bitmapscan = off set enable_sort = off set enable_hashjoin = off set enable_mergejoin = off
as $$
  update jobs j set status = d.status, attempts = j.attempts - d.released::int, run_at = coalesce(d.run_at, j.run_at),
    locked_until = null, last_error = d.error, finished_at = d.finished_at
  from unnest($1, $2, $3, $4, $5, $6, $7) as d(id, attempts, status, run_at, error, finished_at, released)
  where j.id = d.id and j.attempts = d.attempts
  returning j.kind, j.ordering_key, d.status
$$;
`
