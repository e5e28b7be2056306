export default `
-- The template a document was made from (use, direct link), for its templateId.
alter table envelopes add column template_id text;
`
