import { component, useEmbed } from './embed.js'
import type { EmbedCreateEnvelopeProps, EmbedUpdateEnvelopeProps, EnvelopeEditorHandle, EnvelopeEvent } from './types.js'

/** Embeds the creation of a document or template envelope (`type`); `ref` gets its handle. */
export const EmbedCreateEnvelope = /* @__PURE__ */ component<EmbedCreateEnvelopeProps, EnvelopeEditorHandle<EnvelopeEvent>>((props, ref) =>
  useEmbed(props, {
    route: 'envelope.create',
    title: props.type === 'TEMPLATE' ? 'Create template' : 'Create document',
    options: { type: props.type },
    done: 'envelope-created',
    fire: (p, e: EnvelopeEvent) => {
      p.onEnvelopeCreated?.(e)
      ;(p.type === 'TEMPLATE' ? p.onTemplateCreated : p.onDocumentCreated)?.(e)
    },
  }, ref),
)

/** Embeds the editing of an existing envelope; `ref` gets its handle. */
export const EmbedUpdateEnvelope = /* @__PURE__ */ component<EmbedUpdateEnvelopeProps, EnvelopeEditorHandle<EnvelopeEvent>>((props, ref) =>
  useEmbed(props, {
    route: 'envelope.edit',
    title: 'Edit envelope',
    id: 'envelopeId',
    options: { onlyEditFields: props.onlyEditFields },
    done: 'envelope-updated',
    fire: (p, e: EnvelopeEvent) => p.onEnvelopeUpdated?.(e),
  }, ref),
)
