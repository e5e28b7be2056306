export default `
-- When the person last proved themselves in the session (password and second factor, a passkey,
-- an e-mailed link, or a password or code given again): sensitive changes need a recent proof.
alter table user_sessions add column proved_at timestamptz;
`
