import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ApiFailure, v2Form } from '../api.js'
import { consoleLanguage, ct } from '../i18n/index.js'
import { messageOf } from '../parts.js'
import { navigate } from '../router.js'
import { DropZone } from './DropZone.js'
import { MAX_FILES, problemOf, titleOf } from './pdf-check.js'
import './new-envelope.css'

type Kind = 'DOCUMENT' | 'TEMPLATE'

/** The list header's and the empty state's button that opens (and closes) the new-envelope form. */
export function NewEnvelopeButton({ type, open, onToggle, controls }: { type: Kind; open: boolean; onToggle: () => void; controls: string }) {
  return (
    <button className="btn btn-primary" type="button" aria-expanded={open} aria-controls={open ? controls : undefined} onClick={onToggle}>
      {type === 'DOCUMENT' ? ct('documents.new') : ct('templates.new')}
    </button>
  )
}

/**
 * A new document or template from PDFs dropped on the zone or chosen (several files make one
 * envelope, in the order given), created in one request through API v2 with the member's session:
 * the host writes all of it or nothing. Then its page, with the editor open to add the recipients
 * and fields. Files that are not PDFs, are password-protected or too many are refused before the
 * upload; what the host refuses (too large, unreadable) is said in the same words.
 */
export function NewEnvelope({ type, id, onClose }: { type: Kind; id: string; onClose: () => void }) {
  const [files, setFiles] = useState<File[]>([])
  const [title, setTitle] = useState('')
  const [titled, setTitled] = useState(false)
  const [problems, setProblems] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])

  const add = async (chosen: File[]) => {
    const found: string[] = []
    const accepted: File[] = []
    for (const file of chosen) {
      const problem = await problemOf(file)
      if (problem) found.push(ct(`documents.new.error.${problem}`, { name: file.name }))
      else accepted.push(file)
    }
    const room = MAX_FILES - files.length
    if (accepted.length > room) found.push(ct('documents.new.error.tooMany', { max: MAX_FILES }))
    const next = [...files, ...accepted.slice(0, Math.max(0, room))]
    setProblems(found)
    setFiles(next)
    if (!titled && next[0]) setTitle(titleOf(next[0].name))
  }
  const remove = (n: number) => {
    const next = files.filter((_, i) => i !== n)
    setFiles(next)
    if (!titled) setTitle(next[0] ? titleOf(next[0].name) : '')
  }

  const create = async (e: FormEvent) => {
    e.preventDefault()
    if (!files.length) return setProblems([ct('documents.new.error.none')])
    setBusy(true)
    setProblems([])
    try {
      const form = new FormData()
      form.set('payload', JSON.stringify({ type, title: title.trim() || titleOf(files[0]!.name) }))
      for (const f of files) form.append('files', f, f.name)
      const made = await v2Form<{ id: string }>('/envelope/create', form)
      navigate(`${type === 'DOCUMENT' ? '/console/documents' : '/console/templates'}/${made.id}?edit=1`)
    } catch (err) {
      setProblems([refusal(err, files)])
      setBusy(false)
    }
  }

  return (
    <form id={id} className="card card-pad stack docs-new" onSubmit={(e) => void create(e)} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={heading} tabIndex={-1}>
        {type === 'DOCUMENT' ? ct('documents.new') : ct('templates.new')}
      </h2>
      <DropZone
        title={ct('documents.new.drop')}
        choose={ct('documents.new.choose')}
        hint={ct('documents.new.hint', { max: MAX_FILES })}
        accept="application/pdf,.pdf"
        multiple
        testId="drop-zone"
        onFiles={(chosen) => void add(chosen)}
      />
      {problems.length > 0 && (
        <div className="alert alert-error" role="alert">
          {problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
      )}
      {files.length > 0 && (
        <ol className="docs-new-files" aria-label={ct('documents.files')}>
          {files.map((f, n) => (
            <li key={`${n}-${f.name}`}>
              <span className="docs-new-name">{f.name}</span>
              <span className="muted small">{sizeOf(f.size)}</span>
              {/* The file's name is in the button's name, not only its visible word: "Remove notes.pdf". */}
              <button className="btn btn-sm btn-secondary" type="button" onClick={() => remove(n)}>
                {ct('documents.new.removeShort')}
                <span className="sr-only"> {f.name}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      <label className="form-field">
        <span className="label">{ct('documents.new.title')}</span>
        <input
          className="input"
          name="title"
          value={title}
          maxLength={255}
          onChange={(e) => {
            setTitle(e.target.value)
            setTitled(e.target.value.trim() !== '')
          }}
        />
      </label>
      <div className="team-actions">
        <button className="btn btn-primary" type="submit" disabled={busy} aria-describedby={busy ? `${id}-busy` : undefined}>
          {ct('documents.new.create')}
        </button>
        <button className="btn btn-secondary" type="button" onClick={onClose}>
          {ct('documents.new.close')}
        </button>
        {busy && (
          <span id={`${id}-busy`} className="muted small" role="status">
            {ct('documents.new.uploading')}
          </span>
        )}
      </div>
    </form>
  )
}

/** The host's refusal in the console's words: the file it names when it names one. */
function refusal(err: unknown, files: File[]): string {
  if (!(err instanceof ApiFailure)) return messageOf(err)
  if (err.status === 413) return ct('documents.new.error.tooBig')
  if (err.issues?.some((i) => String(i.path) === 'files')) return ct('documents.new.error.tooMany', { max: MAX_FILES })
  if (err.code === 'INVALID_PDF') {
    // The message starts with the file's name: the longest name it starts with (one name may begin another).
    const name = files.map((f) => f.name).filter((n) => err.message.startsWith(`${n} `)).sort((a, b) => b.length - a.length)[0] ?? ''
    return ct(/encrypt/i.test(err.message) ? 'documents.new.error.encrypted' : 'documents.new.error.invalid', { name })
  }
  return messageOf(err)
}

/** A file's size in the reader's language: kilobytes below a megabyte, megabytes from there. */
function sizeOf(bytes: number): string {
  const mb = bytes >= 1_000_000
  return new Intl.NumberFormat(consoleLanguage(), { style: 'unit', unit: mb ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 }).format(mb ? bytes / 1_000_000 : Math.max(0.1, bytes / 1000))
}
