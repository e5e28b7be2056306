'use client'
/** envelope-embed: React components that embed envelope authoring and signing of the signing service. */
export { EmbedCreateEnvelope, EmbedUpdateEnvelope } from './react/v2.js'
export { EmbedDirectTemplate, EmbedMultiSignDocument, EmbedSignDocument } from './react/sign.js'
export { EmbedCreateDocumentV1, EmbedCreateTemplateV1, EmbedUpdateDocumentV1, EmbedUpdateTemplateV1 } from './react/v1.js'
export { EmbedProvider, type EmbedProviderProps } from './react/provider.js'
export { DEFAULT_HOST } from './protocol/url.js'
export type * from './react/types.js'
export type { EmbedCssVars, EmbedErrorCode, EmbedFeatures, EnvelopeType, FeatureKey } from './protocol/index.js'
