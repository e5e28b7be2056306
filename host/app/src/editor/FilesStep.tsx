import { useRef, useState, type DragEvent } from 'react'
import { moveInList, newKey, removeItem, type DraftItem } from './draft/model.js'
import { formFieldsOf, offerFormFields } from './draft/form-fields.js'
import { t, tn } from '../i18n/index.js'
import { looksLikePdf } from '../pdf/pdf.js'
import { recipientColor, type StepProps } from './steps.js'
import { Icon } from '../page/icons.js'
import { PageThumb, type ThumbField } from '../page/PageThumb.js'
import { usePdf } from '../page/usePdf.js'

const titleOf = (name: string) => name.replace(/\.pdf$/i, '').trim() || name

export function FilesStep({ session, features, draft, setDraft, announce }: StepProps) {
  // A new envelope needs one file: its first upload is always possible.
  const canUpload = features.items.upload || (!session.envelope && draft.items.length === 0)
  const multiple = features.items.upload
  const input = useRef<HTMLInputElement>(null)
  const [rejected, setRejected] = useState<string[]>([])
  const [over, setOver] = useState(false)

  async function add(files: File[]) {
    const checks = await Promise.all(files.map((f) => looksLikePdf(f)))
    const accepted = files.filter((_, n) => checks[n])
    setRejected(files.filter((_, n) => !checks[n]).map((f) => f.name))
    if (!accepted.length) return
    const items = (multiple ? accepted : accepted.slice(0, 1)).map((file): DraftItem => ({ key: newKey('i'), id: null, title: titleOf(file.name), file, order: null }))
    setDraft((d) => ({
      ...d,
      items: [...d.items, ...items],
      // A new envelope is named after its first file until the user names it.
      settings: d.settings.title.trim() ? d.settings : { ...d.settings, title: items[0]!.title },
    }))
    announce(tn('files.added', items.length))
    // Each file's own form fields, offered in the fields step (when there is one to place them).
    if (features.steps.fields)
      for (const item of items) void formFieldsOf(session.api, item.file!).then((fields) => setDraft((d) => offerFormFields(d, item.key, fields)))
  }

  function onDrop(e: DragEvent) {
    e.preventDefault()
    setOver(false)
    void add([...e.dataTransfer.files])
  }

  return (
    <section className="stack" aria-labelledby="files-intro">
      <p id="files-intro" className="intro">
        {t('files.intro')}
      </p>
      {canUpload && (
        <div
          className="dropzone"
          data-over={over || undefined}
          onDragOver={(e) => {
            e.preventDefault()
            setOver(true)
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <span className="dropzone-icon">
            <Icon name="upload" size={28} />
          </span>
          <p className="dropzone-title">{t('files.drop')}</p>
          <p className="muted">
            {t('files.or')}{' '}
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => input.current?.click()}>
              {t('files.choose')}
            </button>
          </p>
          <p className="muted small">{t('files.onlyPdf')}</p>
          <input
            ref={input}
            type="file"
            accept="application/pdf,.pdf"
            multiple={multiple}
            hidden
            data-testid="file-input"
            onChange={(e) => {
              void add([...(e.target.files ?? [])])
              e.target.value = ''
            }}
          />
        </div>
      )}
      {rejected.length > 0 && (
        <div className="alert alert-error" role="alert">
          {rejected.map((name) => (
            <p key={name}>{t('files.notPdf', { name })}</p>
          ))}
        </div>
      )}
      {draft.items.length > 0 && (
        <ol className="file-list">
          {draft.items.map((item, n) => (
            <FileRow
              key={item.key}
              item={item}
              index={n}
              count={draft.items.length}
              session={session}
              features={features.items}
              fields={firstPageFields(draft, item.key)}
              onTitle={(title) => setDraft((d) => ({ ...d, items: d.items.map((i) => (i.key === item.key ? { ...i, title } : i)) }))}
              onMove={(to) => setDraft((d) => ({ ...d, items: moveInList(d.items, n, to) }))}
              onRemove={() =>
                setDraft((d) => {
                  const next = removeItem(d, item.key)
                  // A new envelope named after this file takes the name of the next one.
                  const named = !session.envelope && d.settings.title === item.title
                  return named ? { ...next, settings: { ...next.settings, title: next.items[0]?.title ?? '' } } : next
                })
              }
            />
          ))}
        </ol>
      )}
    </section>
  )
}

/** The fields on a file's first page (its thumbnail), coloured by recipient as in the fields step. */
function firstPageFields(draft: StepProps['draft'], itemKey: string): ThumbField[] {
  const index = new Map(draft.recipients.map((r, n) => [r.key, n]))
  return draft.fields
    .filter((f) => f.itemKey === itemKey && f.page === 1)
    .map((f) => ({ id: f.key, x: f.x, y: f.y, w: f.w, h: f.h, color: recipientColor(index.get(f.recipientKey) ?? 0) }))
}

function FileRow(props: {
  item: DraftItem
  index: number
  count: number
  session: StepProps['session']
  features: StepProps['features']['items']
  fields: ThumbField[]
  onTitle: (title: string) => void
  onMove: (to: number) => void
  onRemove: () => void
}) {
  const { item, index, count } = props
  const { doc, failed } = usePdf(props.session.api, item)
  const name = item.title || `#${index + 1}`
  const inputId = `file-title-${item.key}`
  return (
    <li className="file-row card" data-testid="file-row">
      <span className="file-index" aria-hidden="true">
        {index + 1}
      </span>
      <div className="thumb">
        <PageThumb doc={doc} page={1} fields={props.fields} />
      </div>
      <div className="file-main">
        <label className="label" htmlFor={inputId}>
          {t('files.name')}
        </label>
        <input
          id={inputId}
          className="input"
          value={item.title}
          maxLength={255}
          readOnly={!props.features.rename}
          onChange={(e) => props.onTitle(e.target.value)}
        />
        <p className="muted small">
          {failed ? <span className="text-error">{t('files.unreadable')}</span> : doc ? tn('files.pages', doc.numPages) : '\u00a0'}
        </p>
      </div>
      <div className="row-actions">
        {props.features.reorder && (
          <>
            <button type="button" className="btn-icon" aria-label={t('files.moveUp', { name })} disabled={index === 0} onClick={() => props.onMove(index - 1)}>
              <Icon name="arrowUp" />
            </button>
            <button type="button" className="btn-icon" aria-label={t('files.moveDown', { name })} disabled={index === count - 1} onClick={() => props.onMove(index + 1)}>
              <Icon name="arrowDown" />
            </button>
          </>
        )}
        {props.features.remove && (
          <button type="button" className="btn-icon btn-danger" aria-label={t('files.remove', { name })} onClick={props.onRemove}>
            <Icon name="trash" />
          </button>
        )}
      </div>
    </li>
  )
}
