export default `
-- A template's direct link: codes go to the address the visitor gives, per address.
alter table recipient_auth_codes add column email text;
`
