import { useEmbed } from './embed.js'
import type { EmbedCreateEnvelopeProps, EmbedUpdateEnvelopeProps, EnvelopeEvent } from './types.js'

/** Embeds the creation of a document or template envelope (`type`). */
export function EmbedCreateEnvelope(props: EmbedCreateEnvelopeProps) {
  return useEmbed(props, {
    route: 'envelope.create',
    title: props.type === 'TEMPLATE' ? 'Create template' : 'Create document',
    options: { type: props.type },
    done: 'envelope-created',
    fire: (p, e: EnvelopeEvent) => {
      p.onEnvelopeCreated?.(e)
      ;(p.type === 'TEMPLATE' ? p.onTemplateCreated : p.onDocumentCreated)?.(e)
    },
  })
}

/** Embeds the editing of an existing envelope. */
export function EmbedUpdateEnvelope(props: EmbedUpdateEnvelopeProps) {
  return useEmbed(props, {
    route: 'envelope.edit',
    title: 'Edit envelope',
    id: ['envelopeId', props.envelopeId],
    options: { onlyEditFields: props.onlyEditFields },
    done: 'envelope-updated',
    fire: (p, e: EnvelopeEvent) => p.onEnvelopeUpdated?.(e),
  })
}
