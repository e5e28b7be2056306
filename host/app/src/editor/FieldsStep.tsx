import { useCallback, useEffect, useMemo, useState } from 'react'
import { signersWithoutSignature, type DraftField, type DraftItem } from './draft/model.js'
import { t, tn } from '../i18n/index.js'
import { recipientColor, type StepProps } from './steps.js'
import { FieldInspector } from './FieldInspector.js'
import { FormFieldsOffer } from './FormFieldsOffer.js'
import { FieldPalette, RecipientPicker } from './FieldTools.js'
import { Icon } from '../page/icons.js'
import { PdfPage, type PageHandlers } from './PdfPage.js'
import { usePdf } from '../page/usePdf.js'
import { useFieldPlacement, type PageRef } from './useFieldPlacement.js'

export function FieldsStep(props: StepProps & { locked: boolean }) {
  const { session, draft, setDraft, announce, goTo, locked, problems, pageCounts, onPages } = props
  const [recipientKey, setRecipientKey] = useState<string | null>(draft.recipients[0]?.key ?? null)
  const recipient = draft.recipients.find((r) => r.key === recipientKey) ?? draft.recipients[0] ?? null
  const { armed, selected, setSelected, focusField, ghost, currentPage, handlers, startDrag, onTypeClick } = useFieldPlacement({ draft, setDraft, announce, recipient })

  const colorIndex = useMemo(() => new Map(draft.recipients.map((r, n) => [r.key, n])), [draft.recipients])
  const colorOf = useCallback((key: string) => recipientColor(colorIndex.get(key) ?? 0), [colorIndex])
  const names = useMemo(() => new Map(draft.recipients.map((r) => [r.key, r.name.trim() || r.email.trim() || '?'])), [draft.recipients])
  const nameOf = useCallback((key: string) => names.get(key) ?? '?', [names])
  const selectedField = draft.fields.find((f) => f.key === selected) ?? null
  // Choosing whom new fields are for lets go of a field of someone else, so the inspector never
  // names the previous recipient beside the one just chosen.
  const pickRecipient = (key: string) => {
    setRecipientKey(key)
    if (selectedField && selectedField.recipientKey !== key) setSelected(null)
  }
  const unsignedKeys = useMemo(() => new Set(signersWithoutSignature(draft).map((r) => r.key)), [draft])

  if (!draft.items.length || !draft.recipients.length) {
    const noFiles = !draft.items.length
    return (
      <div className="empty-state card">
        <Icon name={noFiles ? 'file' : 'users'} size={28} />
        <p>{t(noFiles ? 'fields.noFiles' : 'fields.noRecipients')}</p>
        {!locked && (
          <button type="button" className="btn btn-secondary" onClick={() => goTo(noFiles ? 'files' : 'recipients')}>
            {t(noFiles ? 'fields.goFiles' : 'fields.goRecipients')}
          </button>
        )}
      </div>
    )
  }

  return (
    <div className="fields-layout">
      <aside className="tools">
        <RecipientPicker draft={draft} recipient={recipient} unsignedKeys={unsignedKeys} problems={problems} onPick={pickRecipient} />
        <FieldPalette armed={armed} color={recipient ? colorOf(recipient.key) : undefined} onPointerDown={startDrag} onClick={onTypeClick} />
        <FieldInspector
          field={selectedField}
          draft={draft}
          invalid={!!selectedField && problems.some((p) => p.target === selectedField.key && p.message === 'problem.fieldOptions')}
          pages={draft.items.map((i) => ({ itemKey: i.key, title: i.title, count: pageCounts[i.key] ?? 0 }))}
          onChange={(patch) => selectedField && handlers.onChange(selectedField.key, patch)}
          onDelete={() => selectedField && handlers.onDelete(selectedField.key)}
        />
      </aside>

      <div className="pages" data-armed={armed || undefined}>
        <p id="field-help" className="sr-only">
          {t('fields.boxHelp')}
        </p>
        <FormFieldsOffer draft={draft} setDraft={setDraft} announce={announce} recipient={recipient} nameOf={nameOf} />
        {draft.items.map((item) => (
          <ItemPages
            key={item.key}
            session={session}
            item={item}
            fields={draft.fields}
            colorOf={colorOf}
            nameOf={nameOf}
            selected={selected}
            focusField={focusField}
            armed={armed !== null}
            current={currentPage}
            handlers={handlers}
            onPages={onPages}
          />
        ))}
      </div>
      {ghost && (
        <div className="drag-ghost" style={{ left: ghost.x, top: ghost.y, ['--c' as string]: recipient ? colorOf(recipient.key) : undefined }} aria-hidden="true">
          <Icon name={ghost.type} size={14} />
          {t(`field.${ghost.type}`)}
        </div>
      )}
    </div>
  )
}

function ItemPages(props: {
  session: StepProps['session']
  item: DraftItem
  fields: DraftField[]
  colorOf: (key: string) => string
  nameOf: (key: string) => string
  selected: string | null
  focusField: string | null
  armed: boolean
  current: PageRef | null
  handlers: PageHandlers
  onPages: (itemKey: string, count: number) => void
}) {
  const { item, onPages } = props
  const { doc, failed } = usePdf(props.session.api, item)
  useEffect(() => {
    if (doc) onPages(item.key, doc.numPages)
  }, [doc, item.key, onPages])
  return (
    <section className="item-pages" aria-label={item.title}>
      <h3 className="item-title">
        <Icon name="file" />
        {item.title}
        {doc && <span className="muted small">{tn('files.pages', doc.numPages)}</span>}
      </h3>
      {failed && <p className="alert alert-error">{t('files.unreadable')}</p>}
      {!doc && !failed && (
        <div className="page page-placeholder" aria-busy="true">
          <span className="page-loading">
            <span className="spinner" />
            <span className="sr-only">{t('fields.pageLoading')}</span>
          </span>
        </div>
      )}
      {doc &&
        Array.from({ length: doc.numPages }, (_, n) => n + 1).map((page) => (
          <PdfPage
            key={page}
            doc={doc}
            item={item}
            page={page}
            fields={props.fields.filter((f) => f.itemKey === item.key && f.page === page)}
            colorOf={props.colorOf}
            nameOf={props.nameOf}
            selected={props.selected}
            focusField={props.focusField}
            armed={props.armed}
            current={props.current?.itemKey === item.key && props.current.page === page}
            handlers={props.handlers}
          />
        ))}
    </section>
  )
}
