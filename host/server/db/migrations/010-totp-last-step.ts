export default `
-- The last TOTP time step a code was accepted for (people/totp.ts): a code works once, and no
-- older one works after it.
alter table users add column totp_last_step bigint;
create index auth_challenges_expiry on auth_challenges (expires_at);
`
