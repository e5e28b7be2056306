export default `
-- A stable number per team, for the deployed clients' numeric teamId / userId (docs/api-notes.md,
-- "Compatibility with the deployed clients"); existing teams are numbered in the order they are read.
alter table teams add column number serial;
create unique index teams_number on teams (number);
`
