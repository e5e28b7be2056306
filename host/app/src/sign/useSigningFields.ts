import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { SignOptions, SigningFieldValue } from '../../../../src/protocol/index.js'
import { post } from '../page/bridge.js'
import { t, tn } from '../i18n/index.js'
import { reveal } from '../page/viewport.js'
import { fieldName } from './FieldOverlay.js'
import { outputSize, type OutputSize } from './signature.js'
import { computedOf, imageKind, initialValues, isFilled, isHidden, isSignatureType, nextField, orderFields, progressOf, type Decided, type SigningField, type SigningSession, type Values } from './session.js'
import { useFieldLogic } from './useFieldLogic.js'

/** The dialog open over the document, if any. */
export type OpenDialog =
  | { kind: 'field'; id: number }
  | { kind: 'signature'; id: number; size: OutputSize }
  | { kind: 'complete' }
  | { kind: 'reject' }
  | { kind: 'withdraw' }
  | null

/** A line under the action: what only confirms (info) is for screen readers, what asks for action (error) for everyone. */
export type Notice = { text: string; tone: 'info' | 'error' }

/**
 * The recipient's fields on the READY screen: their values, the one they are at, the dialog open
 * for one, and the notice that tells what happened or what is missing. Conditions hide fields
 * (`ordered` holds only those shown) and make them required; formulas fill theirs. `values` is
 * what would be sent: no hidden field's value (its draft is kept for when it shows again), each
 * formula's result. Until the recipient agreed to sign electronically (`agreed`), opening a field
 * or the action leads to the consent instead.
 */
export function useSigningFields(session: SigningSession, options: SignOptions, agreed: boolean) {
  const { envelope } = session
  const [draft, setValues] = useState<Values>(() => initialValues(session, options))
  const { decided, values, news } = useFieldLogic(session, draft)
  const all = useMemo(() => orderFields(session.fields, envelope.items), [session.fields, envelope.items])
  const ordered = useMemo(() => (decided ? all.filter((f) => !isHidden(f, decided)) : all), [all, decided])
  const [open, setOpen] = useState<OpenDialog>(null)
  const [currentId, setCurrentId] = useState<number | null>(null)
  const [adopted, setAdopted] = useState<{ signature?: string; initials?: string }>({})
  const [notice, setNotice] = useState<Notice | null>(null)
  const refs = useRef(new Map<number, HTMLElement>())
  const progress = useMemo(() => progressOf(ordered, values, decided), [ordered, values, decided])
  const askConsent = useCallback(() => {
    setNotice({ text: t('consent.needed'), tone: 'error' })
    const button = document.getElementById('consent-agree')
    button?.focus({ preventScroll: true })
    if (button) reveal(button, { block: 'center', smooth: false })
  }, [])

  const setValue = useCallback((id: number, value: SigningFieldValue | undefined) => {
    setValues((v) => ({ ...v, [id]: value }))
  }, [])

  useFieldMessages(session.fields, values, decided)

  const goTo = useCallback((f: SigningField) => {
    setCurrentId(f.id)
    const el = refs.current.get(f.id)
    if (!el) return
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches
    el.focus({ preventScroll: true })
    reveal(el, { block: 'center', smooth })
  }, [])

  const openField = useCallback(
    (f: SigningField) => {
      if (!agreed) return askConsent()
      // A hidden field is not there to open; a formula's field is filled by the page, never typed in.
      if (isHidden(f, decided) || computedOf(f, decided)) return
      setCurrentId(f.id)
      setNotice(null)
      if (isSignatureType(f)) {
        const kind = imageKind(f)
        const reuse = adopted[kind]
        if (reuse && !isFilled(f, values[f.id])) {
          // One click: the signature adopted for an earlier field signs this one too.
          setValue(f.id, reuse)
          setNotice({ text: t(kind === 'initials' ? 'sign.notice.initialsAdded' : 'sign.notice.signatureAdded'), tone: 'info' })
          return
        }
        const rect = refs.current.get(f.id)?.getBoundingClientRect()
        setOpen({ kind: 'signature', id: f.id, size: outputSize(f.width, rect && rect.height ? rect.width / rect.height : 3) })
      } else setOpen({ kind: 'field', id: f.id })
    },
    [adopted, values, setValue, agreed, askConsent, decided],
  )

  // The action leads to the first field still to fill while there is one, else to the confirmation.
  function onAction() {
    if (!agreed) return askConsent()
    const todo = progress.invalid[0]
    if (todo) {
      const count = progress.missing.length
      setNotice({
        text: count ? tn('sign.notice.missing', count) : t('sign.notice.invalid', { field: fieldName(todo) }),
        tone: 'error',
      })
      goTo(nextField(ordered, progress, null) ?? todo)
      return
    }
    setNotice(null)
    setOpen({ kind: 'complete' })
  }

  // The image adopted in the signature dialog signs the field, and the next of its kind in one click.
  function adoptImage(field: SigningField, png: string) {
    setValue(field.id, png)
    setAdopted((a) => ({ ...a, [imageKind(field)]: png }))
    setNotice({ text: t(imageKind(field) === 'initials' ? 'sign.notice.initialsAdded' : 'sign.notice.signatureAdded'), tone: 'info' })
    setOpen(null)
  }

  const openFieldObj = open && (open.kind === 'field' || open.kind === 'signature') ? ordered.find((f) => f.id === open.id) : undefined
  const next = nextField(ordered, progress, currentId)

  return { ordered, values, decided, news, setValue, open, setOpen, openFieldObj, currentId, notice, refs, progress, next, goTo, openField, onAction, adoptImage }
}

/**
 * The parent hears each field that gets or loses a value (field-signed, field-unsigned): the
 * signer's doing, so not a formula's result; a filled field a condition hides loses its value.
 */
function useFieldMessages(fields: SigningField[], values: Values, decided: Decided) {
  const filled = useRef<Set<number> | null>(null)
  useEffect(() => {
    const now = new Set(fields.filter((f) => f.type !== 'DATE' && !computedOf(f, decided) && isFilled(f, values[f.id])).map((f) => f.id))
    const before = filled.current
    filled.current = now
    if (!before) return
    for (const id of now) if (!before.has(id)) post({ action: 'field-signed' })
    for (const id of before) if (!now.has(id)) post({ action: 'field-unsigned' })
  }, [values, fields, decided])
}
