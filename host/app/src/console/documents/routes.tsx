import type { ConsoleRoute } from '../router.js'
import { EnvelopeList } from './EnvelopeList.js'
import { EnvelopePage } from './EnvelopePage.js'
import './documents.css'

/** The documents' and templates' screens. */
export const documentRoutes: ConsoleRoute[] = [
  { pattern: '/console/documents', render: () => <EnvelopeList key="documents" type="DOCUMENT" /> },
  { pattern: '/console/documents/:id', render: (p) => <EnvelopePage key={p.id} id={p.id!} /> },
  { pattern: '/console/templates', render: () => <EnvelopeList key="templates" type="TEMPLATE" /> },
  { pattern: '/console/templates/:id', render: (p) => <EnvelopePage key={p.id} id={p.id!} /> },
]
