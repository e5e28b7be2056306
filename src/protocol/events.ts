/** Every webhook event the service emits, the fourteen of API v2: the server sends them, the console subscribes to them. */
export const EVENT_NAMES = [
  'DOCUMENT_CREATED',
  'DOCUMENT_SENT',
  'DOCUMENT_OPENED',
  'DOCUMENT_SIGNED',
  'DOCUMENT_RECIPIENT_COMPLETED',
  'DOCUMENT_COMPLETED',
  'DOCUMENT_REJECTED',
  'DOCUMENT_CANCELLED',
  'RECIPIENT_EXPIRED',
  'DOCUMENT_REMINDER_SENT',
  'TEMPLATE_CREATED',
  'TEMPLATE_UPDATED',
  'TEMPLATE_DELETED',
  'TEMPLATE_USED',
] as const
export type EventName = (typeof EVENT_NAMES)[number]
