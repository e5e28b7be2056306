/** The authoring pages (docs/protocol.md, "The iframe URL"), one entry per component. */
export const EMBED_ROUTES = {
  'envelope.create': '/embed/v2/authoring/envelope/create',
  'envelope.edit': '/embed/v2/authoring/envelope/edit/:id',
  'document.create': '/embed/v1/authoring/document/create',
  'template.create': '/embed/v1/authoring/template/create',
  'document.edit': '/embed/v1/authoring/document/edit/:id',
  'template.edit': '/embed/v1/authoring/template/edit/:id',
} as const

export type EmbedRoute = keyof typeof EMBED_ROUTES

/**
 * The path of a route, with its `:id` filled in (edit routes). Spelled out from the route's name
 * (EMBED_ROUTES' pattern) so that a component's bundle carries no table of the others' paths.
 */
export function embedPath(route: EmbedRoute, id?: string | number): string {
  const [kind, action] = route.split('.')
  return `/embed/v${kind === 'envelope' ? 2 : 1}/authoring/${kind}/${action}${action === 'edit' ? '/' + encodeURIComponent(String(id ?? '')) : ''}`
}
