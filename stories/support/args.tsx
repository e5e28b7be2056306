import type { ComponentType, ReactElement } from 'react'
import type { ArgTypes, StoryContext } from '@storybook/react-vite'
import { fn } from 'storybook/test'
import { CSS_VAR_KEYS, FEATURE_KEYS, type FeatureKey } from '../../src/protocol/index.js'
import { hostUrl, type Loaded } from './demo.js'

/** Languages offered in the language control; the host falls back to English for others. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'ja', 'zh']

const category = (name: string) => ({ table: { category: name } })

/** Controls for the props every component shares. */
export const commonArgTypes = {
  presignToken: {
    control: 'text',
    description: 'Presign token minted by your backend. Left empty, the story mints one through the demo backend (`POST /presign`).',
    ...category('Session'),
  },
  host: { control: 'text', description: "The service's origin (no `/api/v2`).", ...category('Session') },
  timeout: { control: { type: 'number', min: 0, step: 1000 }, ...category('Session') },
  externalId: { control: 'text', ...category('Envelope') },
  language: { control: 'select', options: LANGUAGES, ...category('Appearance') },
  darkModeDisabled: { control: 'boolean', ...category('Appearance') },
  cssVars: { control: 'object', description: `Theme variables: ${CSS_VAR_KEYS.join(', ')}.`, ...category('Appearance') },
  css: { control: 'text', ...category('Appearance') },
  features: { control: 'object', description: `Feature toggles (missing = allowed): ${FEATURE_KEYS.join(', ')}.`, ...category('Features') },
  autoHeight: { control: 'boolean', ...category('Layout') },
  className: { control: 'text', ...category('Layout') },
  style: { control: 'object', ...category('Layout') },
  title: { control: 'text', description: "The iframe's accessible title.", ...category('Layout') },
  additionalProps: { control: 'object', description: 'Extra attributes for the iframe element (never `src`).', ...category('Layout') },
  onReady: { ...category('Callbacks') },
  onError: { ...category('Callbacks') },
} satisfies Partial<ArgTypes>

/**
 * The recipient-side components' controls (EmbedSignDocument, EmbedDirectTemplate): the frame's
 * own, without the authoring options, and who signs.
 */
const { presignToken: _presign, externalId: _externalId, features: _features, ...frameArgTypes } = commonArgTypes
export const signingArgTypes = {
  ...frameArgTypes,
  title: { ...frameArgTypes.title, description: "The iframe's accessible title (default `Sign document`)." },
  name: { control: 'text', description: "Prefills the signer's name.", ...category('Signer') },
  lockName: { control: 'boolean', description: 'The prefilled name cannot be changed.', ...category('Signer') },
  email: { control: 'text', description: "Prefills the signer's e-mail.", ...category('Signer') },
  lockEmail: { control: 'boolean', description: 'The prefilled e-mail cannot be changed.', ...category('Signer') },
  onDocumentReady: category('Callbacks'),
  onDocumentCompleted: category('Callbacks'),
  onDocumentError: category('Callbacks'),
} satisfies Partial<ArgTypes>

export const updateArgTypes = {
  onlyEditFields: { control: 'boolean', ...category('Envelope') },
} satisfies Partial<ArgTypes>

/** Callbacks as spies: each call shows in the Actions panel with its payload, and plays can assert on it. */
export const callbacks = <K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((name) => [name, fn().mockName(name)])) as Record<K, ReturnType<typeof fn>>

export const commonArgs = () => ({ presignToken: '', host: hostUrl, ...callbacks('onReady', 'onError') })

interface Session {
  presignToken: string
  host?: string
}

/**
 * Renders `Component` with the story's args, filling what the loaders fetched: the presign token
 * (unless one was typed into the control) and, via `fill`, ids of envelopes created for the story.
 */
export function withSession<P extends Session>(Component: ComponentType<P>, fill: (loaded: Loaded) => Partial<P> = () => ({})) {
  return function Render(args: P, context: Pick<StoryContext, 'loaded'>): ReactElement {
    const loaded = context.loaded as Loaded
    const props = { ...args, ...fillEmpty(args, fill(loaded)), presignToken: args.presignToken || loaded.token, host: args.host || hostUrl }
    return <Component {...props} />
  }
}

function fillEmpty<P>(args: P, values: Partial<P>): Partial<P> {
  const out: Partial<P> = {}
  for (const key of Object.keys(values) as (keyof P)[]) if (!args[key]) out[key] = values[key]
  return out
}

/** One boolean arg per `features` toggle, so each gets its own switch in the Controls panel. */
export type FeatureToggleArgs = Record<FeatureKey, boolean>

export const featureToggleArgs = (value: boolean) =>
  Object.fromEntries(FEATURE_KEYS.map((key) => [key, value])) as FeatureToggleArgs

export const featureToggleArgTypes = Object.fromEntries(
  FEATURE_KEYS.map((key) => [key, { control: 'boolean', table: { category: 'Features' } }]),
) satisfies Partial<ArgTypes>

/** Folds the toggle args into the `features` prop. */
export function withFeatureToggles<P extends { features?: Partial<FeatureToggleArgs> }>(args: P & FeatureToggleArgs): P {
  const props = { ...args } as P & Partial<FeatureToggleArgs>
  const features: Partial<FeatureToggleArgs> = { ...args.features }
  for (const key of FEATURE_KEYS) {
    features[key] = args[key]
    delete props[key]
  }
  return { ...props, features }
}
