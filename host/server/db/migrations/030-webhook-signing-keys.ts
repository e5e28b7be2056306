export default `
-- Each webhook's own signing key (webhooks/signing-keys.ts): the Standard Webhooks HMAC key, apart
-- from the secret sent in clear as X-Service-Secret, so reading one call no longer lets anyone sign.
-- A webhook made before this has none (null) and signs with its secret as it did, so its receivers
-- keep working, until its secret is rotated or a signing key is issued; then the secret that
-- signed goes on signing beside the new key for the grace period (previous_signing_key_until).
alter table webhooks add column signing_key text;
alter table webhooks add column previous_signing_key text;
alter table webhooks add column previous_signing_key_until timestamptz;
-- Off: calls carry no X-Service-Secret header, for receivers that check the signature only.
alter table webhooks add column send_secret_header boolean not null default true;
`
