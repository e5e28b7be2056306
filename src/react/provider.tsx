import type { ReactNode } from 'react'
import { EmbedContext, merge, React } from './embed.js'
import type { EmbedSharedProps } from './types.js'

export interface EmbedProviderProps extends EmbedSharedProps {
  children?: ReactNode
}

/**
 * Sets `host` and any shared option once for every embed below it. An embed's own props win;
 * nested providers refine the outer one.
 */
export function EmbedProvider({ children, ...defaults }: EmbedProviderProps) {
  // Not JSX: the bundle then has one import of the JSX runtime, the iframe's.
  return React.createElement(EmbedContext.Provider, { value: merge(React.useContext(EmbedContext), defaults) }, children)
}
