export default `
-- A credential a member makes never grants more than that member: the role they had when making it
-- is its ceiling, and their role at each use (none once they leave the team) bounds it further
-- (auth/api-tokens.ts, webhooks/store.ts). The operator's (CLI) have no ceiling: the whole team.
alter table api_tokens add column role_ceiling text;
update api_tokens a set role_ceiling = coalesce(
  (select m.role from team_members m where m.team_id = a.team_id and m.user_id = a.created_by), 'MEMBER')
where a.created_by is not null;
alter table webhooks add column created_by text references users (id) on delete set null;
alter table webhooks add column role_ceiling text;
-- Webhooks made so far: their maker as the activity log names them.
update webhooks w set created_by = (
  select a.user_id from team_activity a where a.team_id = w.team_id and a.action = 'webhook.created' and a.target = w.id
  order by a.id limit 1);
update webhooks w set role_ceiling = coalesce(
  (select m.role from team_members m where m.team_id = w.team_id and m.user_id = w.created_by), 'MEMBER')
where w.created_by is not null;
`
