/**
 * The date formats a document's signing dates can be written in (date-fns patterns, as the service
 * formats with): what the editor's Settings step offers and a team's default may be.
 */
export const DATE_FORMATS = [
  'yyyy-MM-dd hh:mm a', 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd', 'dd/MM/yyyy hh:mm a', 'dd/MM/yyyy HH:mm', 'dd/MM/yyyy',
  'MM/dd/yyyy hh:mm a', 'MM/dd/yyyy', 'dd.MM.yyyy HH:mm', 'dd.MM.yyyy', 'MMMM d, yyyy', 'd MMMM yyyy',
] as const
