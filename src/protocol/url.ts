import { embedPath, type EmbedRoute } from './routes.js'
import { encodeOptions, type EmbedOptions } from './options.js'

/** Where the components point when no `host` is given. */
export const DEFAULT_HOST = 'https://app.envelope-embed.com'

/** `{host}{path}?token={presignToken}#{encodedOptions}` (docs/protocol.md, "The iframe URL"). */
export function buildEmbedUrl(args: {
  host: string
  route: EmbedRoute
  id?: string | number
  token: string
  options: EmbedOptions
}): string {
  const host = args.host.replace(/\/+$/, '')
  return `${host}${embedPath(args.route, args.id)}?token=${encodeURIComponent(args.token)}#${encodeOptions(args.options)}`
}
