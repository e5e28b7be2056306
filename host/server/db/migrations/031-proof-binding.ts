export default `
-- Every proof about a recipient names what it proves (domain/signing/proof-binding.ts): a digest of the
-- recipient's id, address and token generation, and the proof's purpose. A code or a passkey
-- challenge counts only while the digest it was issued with is the recipient's digest now; rows
-- from before this migration have none and count for nothing (they live minutes).
alter table recipient_auth_codes add column binding text;
create index recipient_auth_codes_binding on recipient_auth_codes (binding, created_at);
alter table auth_challenges add column binding text;

-- A new address or token spends the recipient's unused codes at once, whichever door changed it:
-- a code already queued for the old address is then never sent.
create function recipients_void_codes() returns trigger language plpgsql as $$
begin
  if new.email is distinct from old.email or new.token is distinct from old.token then
    update recipient_auth_codes set used_at = now() where recipient_id = new.id and used_at is null;
  end if;
  return null;
end $$;
create trigger recipients_void_codes after update of email, token on recipients
  for each row execute function recipients_void_codes();
`
