import { createContext, useContext, type ReactNode } from 'react'
import type { EmbedSharedProps } from './types.js'

export interface EmbedProviderProps extends EmbedSharedProps {
  children?: ReactNode
}

export const EmbedContext = createContext<EmbedSharedProps>({})

/** `base` overridden by the keys of `own` that are not undefined. */
export function merge<T extends object>(base: object, own: T): T {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(own)) if (v !== undefined) out[k] = v
  return out as T
}

/**
 * Sets `host` and any shared option once for every embed below it. An embed's own props win;
 * nested providers refine the outer one.
 */
export function EmbedProvider({ children, ...defaults }: EmbedProviderProps) {
  return <EmbedContext.Provider value={merge(useContext(EmbedContext), defaults)}>{children}</EmbedContext.Provider>
}
