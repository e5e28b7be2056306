export default `
-- The request that caused a job (host/server/log.ts), for the logs of its attempts.
alter table jobs add column request_id text;
`
