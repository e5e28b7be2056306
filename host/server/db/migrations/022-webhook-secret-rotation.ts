export default `
-- A webhook's secret being rotated (webhooks/store.ts): the old one still signs its calls beside
-- the new one until previous_secret_until, so receivers can move over without losing a call.
alter table webhooks add column previous_secret text;
alter table webhooks add column previous_secret_until timestamptz;
`
