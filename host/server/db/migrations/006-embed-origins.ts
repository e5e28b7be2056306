export default `
-- The origins allowed to frame a team's embedded pages (a JSON array of origins); null: any origin.
alter table teams add column embed_origins jsonb;
`
