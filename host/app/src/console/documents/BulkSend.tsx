import { useEffect, useRef, useState } from 'react'
import type { Field } from '../../../../../src/protocol/index.js'
import { download, v2, v2Form } from '../api.js'
import { ConfirmDialog } from '../ConfirmDialog.js'
import { ct } from '../i18n/index.js'
import { ErrorAlert, useAction } from '../parts.js'
import { mappingPayload, suggestMapping, TABLE_NAME, TABLE_TYPES, type BulkPreviewAnswer, type BulkStatus, type BulkTableAnswer, type Mapping } from './bulk-mapping.js'
import { BulkDone, BulkPreview, BulkProgress, ChooseTable, MappingForm, sendLabel } from './BulkSendParts.js'
import type { Envelope } from './types.js'
import './bulk-send.css'

/** How often the progress is asked while the documents go. */
const POLL_MS = 1000

/**
 * Send to many on a template's page: a table (CSV or XLSX) chosen, its columns mapped to the template's
 * roles, fields and title, the host's preview (what goes, what is refused and why), then one
 * document per row sent on the host's queue, its progress followed until the end and its report.
 */
export function BulkSend({ template }: { template: Envelope & { fields?: Field[] } }) {
  const [file, setFile] = useState<File | null>(null)
  const [columns, setColumns] = useState<string[]>([])
  const [mapping, setMapping] = useState<Mapping | null>(null)
  const [preview, setPreview] = useState<BulkPreviewAnswer | null>(null)
  const [status, setStatus] = useState<BulkStatus | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const action = useAction()
  const heading = useRef<HTMLHeadingElement>(null)

  const request = (dryRun: boolean) => {
    const form = new FormData()
    form.set('payload', JSON.stringify({ templateId: template.id, mapping: mappingPayload(mapping!), ...(dryRun ? { dryRun } : {}) }))
    form.set('file', file!, file!.name)
    return form
  }
  // The host reads the table (CSV or XLSX) and answers its columns: a file it cannot read is said at once.
  const choose = (chosen: File | undefined) => {
    if (!chosen) return
    setProblem(null)
    action.setError(null)
    setPreview(null)
    if (!TABLE_NAME.test(chosen.name) && !TABLE_TYPES.includes(chosen.type)) return setProblem(ct('bulk.notTable', { name: chosen.name }))
    void action.run(async () => {
      const form = new FormData()
      form.set('file', chosen, chosen.name)
      const table = await v2Form<BulkTableAnswer>('/envelope/bulk-send/columns', form)
      setFile(chosen)
      setColumns(table.columns)
      setMapping(suggestMapping(template, table.columns))
    })
  }
  const check = () =>
    void action.run(async () => {
      setPreview(await v2Form<BulkPreviewAnswer>('/envelope/bulk-send', request(true)))
    })
  const send = () =>
    void action.run(async () => {
      setConfirming(false)
      setStatus(await v2Form<BulkStatus>('/envelope/bulk-send', request(false)))
    })
  const restart = () => {
    setFile(null)
    setColumns([])
    setMapping(null)
    setPreview(null)
    setStatus(null)
    heading.current?.focus()
  }

  // While the documents go, the progress is asked about once a second, until the end.
  const running = status?.status === 'RUNNING' ? status.id : null
  useEffect(() => {
    if (!running) return
    let stop = false
    let timer: ReturnType<typeof setTimeout>
    const poll = async () => {
      try {
        const next = await v2<BulkStatus>(`/envelope/bulk-send/${running}`)
        if (stop) return
        setStatus(next)
        if (next.status === 'RUNNING') timer = setTimeout(() => void poll(), POLL_MS)
      } catch {
        if (!stop) timer = setTimeout(() => void poll(), POLL_MS)
      }
    }
    timer = setTimeout(() => void poll(), POLL_MS)
    return () => {
      stop = true
      clearTimeout(timer)
    }
  }, [running])

  return (
    <section className="card card-pad stack bulk" aria-labelledby="bulk-title">
      <h2 id="bulk-title" ref={heading} tabIndex={-1}>
        {ct('bulk.title')}
      </h2>
      {!status && <p className="muted">{ct('bulk.intro')}</p>}
      {!status && !preview && <ChooseTable file={file} problem={problem} onChoose={choose} />}
      <ErrorAlert error={action.error} />
      {mapping && !preview && !status && (
        <MappingForm
          template={template}
          columns={columns}
          mapping={mapping}
          busy={action.busy}
          onChange={(m) => {
            setMapping(m)
            action.setError(null)
          }}
          onSubmit={check}
        />
      )}
      {preview && !status && (
        <BulkPreview
          template={template}
          preview={preview}
          busy={action.busy}
          onBack={() => {
            setPreview(null)
            action.setError(null)
          }}
          onSend={() => setConfirming(true)}
        />
      )}
      {status && (status.status === 'RUNNING' ? <BulkProgress status={status} /> : <BulkDone status={status} onReport={() => void action.run(() => download(`/envelope/bulk-send/${status.id}/report`, `${status.id}-report.csv`))} onAgain={restart} />)}
      {confirming && preview && (
        <ConfirmDialog title={ct('bulk.confirmTitle')} confirmLabel={sendLabel(preview.sendable)} busy={action.busy} onConfirm={send} onCancel={() => setConfirming(false)}>
          <p>{ct('bulk.confirmText', { title: template.title })}</p>
        </ConfirmDialog>
      )}
    </section>
  )
}
