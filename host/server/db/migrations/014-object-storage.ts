export default `
-- Files may live in an object store under their hash (STORAGE_URL): their row then holds no bytes.
alter table document_data alter column bytes drop not null;
-- The maintenance job removes what is past its retention without reading the rest.
create index jobs_done on jobs (finished_at) where status = 'done';
create index webhook_calls_created on webhook_calls (created_at);
`
