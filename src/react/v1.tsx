import { component, React, useEmbed } from './embed.js'
import type {
  DocumentEvent, EmbedCreateDocumentV1Props, EnvelopeEditorHandle, EmbedCreateTemplateV1Props, EmbedUpdateDocumentV1Props,
  EmbedUpdateTemplateV1Props, TemplateEvent,
} from './types.js'

const warned = new Set<string>()

/** console.warn once per page and component (in the browser only, so servers stay quiet). */
function useDeprecated(name: string, replacement: string) {
  React.useEffect(() => {
    if (!warned.has(name)) console.warn(`envelope-embed: ${name} is deprecated and will be removed on 1 March 2027; use ${replacement} instead.`)
    warned.add(name)
  }, [])
}

/** @deprecated Removed on 1 March 2027. Use `<EmbedCreateEnvelope type="DOCUMENT">`. */
export const EmbedCreateDocumentV1 = /* @__PURE__ */ component<EmbedCreateDocumentV1Props, EnvelopeEditorHandle<DocumentEvent>>((props, ref) => {
  useDeprecated('EmbedCreateDocumentV1', 'EmbedCreateEnvelope with type="DOCUMENT"')
  return useEmbed(props, {
    route: 'document.create',
    title: 'Create document',
    done: 'document-created',
    fire: (p, e: DocumentEvent) => p.onDocumentCreated?.(e),
  }, ref)
})

/** @deprecated Removed on 1 March 2027. Use `<EmbedCreateEnvelope type="TEMPLATE">`. */
export const EmbedCreateTemplateV1 = /* @__PURE__ */ component<EmbedCreateTemplateV1Props, EnvelopeEditorHandle<TemplateEvent>>((props, ref) => {
  useDeprecated('EmbedCreateTemplateV1', 'EmbedCreateEnvelope with type="TEMPLATE"')
  return useEmbed(props, {
    route: 'template.create',
    title: 'Create template',
    done: 'template-created',
    fire: (p, e: TemplateEvent) => p.onTemplateCreated?.(e),
  }, ref)
})

/** @deprecated Removed on 1 March 2027. Use `<EmbedUpdateEnvelope>`. */
export const EmbedUpdateDocumentV1 = /* @__PURE__ */ component<EmbedUpdateDocumentV1Props, EnvelopeEditorHandle<DocumentEvent>>((props, ref) => {
  useDeprecated('EmbedUpdateDocumentV1', 'EmbedUpdateEnvelope')
  return useEmbed(props, {
    route: 'document.edit',
    title: 'Edit document',
    id: 'documentId',
    options: { onlyEditFields: props.onlyEditFields },
    done: 'document-updated',
    fire: (p, e: DocumentEvent) => p.onDocumentUpdated?.(e),
  }, ref)
})

/** @deprecated Removed on 1 March 2027. Use `<EmbedUpdateEnvelope>`. */
export const EmbedUpdateTemplateV1 = /* @__PURE__ */ component<EmbedUpdateTemplateV1Props, EnvelopeEditorHandle<TemplateEvent>>((props, ref) => {
  useDeprecated('EmbedUpdateTemplateV1', 'EmbedUpdateEnvelope')
  return useEmbed(props, {
    route: 'template.edit',
    title: 'Edit template',
    id: 'templateId',
    options: { onlyEditFields: props.onlyEditFields },
    done: 'template-updated',
    fire: (p, e: TemplateEvent) => p.onTemplateUpdated?.(e),
  }, ref)
})
