export default `
-- Whether the sender chose the document's language (the request, or the team's default, named
-- one). document_meta always holds a language, the default 'en' too; the signing page speaks the
-- signer's browser's language unless one was chosen. Before this, an 'en' cannot be told from the
-- default (and mostly was it); any other language was chosen.
alter table envelopes add column language_chosen boolean not null default false;
update envelopes set language_chosen = true where document_meta->>'language' is distinct from 'en';
`
