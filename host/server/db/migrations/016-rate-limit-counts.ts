export default `
-- The fair-use counts of each process in the current window, shared on PostgreSQL (api/rate-limit.ts).
create table rate_limit_counts (
  window_start bigint not null,
  key text not null,
  process text not null,
  n integer not null,
  primary key (window_start, key, process)
);
`
