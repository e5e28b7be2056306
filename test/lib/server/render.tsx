// Run by Node (`node --import tsx`): server-renders every component where there is no window,
// and prints {window, html, warnings, errors} as JSON.
import { renderToString } from 'react-dom/server'
import {
  EmbedCreateDocumentV1, EmbedCreateEnvelope, EmbedCreateTemplateV1, EmbedMultiSignDocument, EmbedProvider, EmbedSignDocument,
  EmbedUpdateDocumentV1, EmbedUpdateEnvelope, EmbedUpdateTemplateV1,
} from '../../../src/index.js'

const logged = { warnings: [] as unknown[][], errors: [] as unknown[][] }
console.warn = (...args) => logged.warnings.push(args)
console.error = (...args) => logged.errors.push(args)

const html = renderToString(
  <EmbedProvider host="https://sign.example.com" language="de">
    <EmbedCreateEnvelope presignToken="secret" type="TEMPLATE" onEnvelopeCreated={() => {}} />
    <EmbedUpdateEnvelope presignToken="secret" envelopeId="envelope_1" autoHeight />
    <EmbedCreateDocumentV1 presignToken="secret" />
    <EmbedCreateTemplateV1 presignToken="secret" />
    <EmbedUpdateDocumentV1 presignToken="secret" documentId={1} title="Edit the NDA" />
    <EmbedUpdateTemplateV1 presignToken="secret" templateId={2} className="embed" />
    <EmbedCreateEnvelope presignToken="" type="DOCUMENT" host="javascript:alert(1)" />
    <EmbedSignDocument token="secret" name="Ada" autoHeight onDocumentCompleted={() => {}} />
    <EmbedSignDocument token="" />
    <EmbedMultiSignDocument tokens={['secret', 'secret-2']} />
  </EmbedProvider>,
)
process.stdout.write(JSON.stringify({ window: typeof window, html, ...logged }))
