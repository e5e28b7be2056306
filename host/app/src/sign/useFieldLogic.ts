import { useEffect, useMemo, useRef, useState } from 'react'
import { decideFields, fieldValueOf, hasLogic, logicFieldOf, type FieldValue } from '../../../shared/field-logic/index.js'
import { t, type MessageKey } from '../i18n/index.js'
import { fieldName } from './FieldOverlay.js'
import { requiredOf, type Decided, type SigningField, type SigningSession, type Values } from './session.js'

/**
 * Conditional fields and formulas on the page: which of the recipient's fields are shown and
 * required, and what each formula computes, for the values stored (theirs and the other
 * recipients' the session lists in `logicFields`) and the draft, decided again on every change.
 * `values` is the draft as it would be sent: without hidden fields' values, with formulas'
 * results. `news` says politely which fields appeared, went, or became required or optional.
 * An envelope without logic decides nothing (`decided` null) and keeps the draft as it is.
 */
export function useFieldLogic(session: SigningSession, draft: Values): { decided: Decided; values: Values; news: { text: string; n: number } } {
  const logic = useMemo(() => {
    if (!hasLogic(session.fields)) return null
    const others = session.logicFields ?? []
    return {
      fields: [...session.fields, ...others].map(logicFieldOf),
      stored: new Map<number, FieldValue>(others.map((o) => [o.id, fieldValueOf(o.type, o.value)])),
    }
  }, [session])

  const decided = useMemo(() => {
    if (!logic) return null
    const values = new Map(logic.stored)
    for (const f of session.fields) values.set(f.id, draft[f.id] ?? null)
    return decideFields(logic.fields, values)
  }, [logic, session.fields, draft])

  const values = useMemo(() => {
    if (!decided) return draft
    const sent: Values = { ...draft }
    for (const f of session.fields) {
      const state = decided.get(f.id)
      if (!state || f.inserted) continue
      if (!state.visible) delete sent[f.id]
      else if (state.computed) {
        if ('value' in state.computed) sent[f.id] = state.computed.value
        else delete sent[f.id]
      }
    }
    return sent
  }, [decided, draft, session.fields])

  return { decided, values, news: useLogicNews(session.fields, decided) }
}

/** What changed in the decision since the last one, in words (a live region reads it). */
function useLogicNews(fields: SigningField[], decided: Decided) {
  const [news, setNews] = useState({ text: '', n: 0 })
  const before = useRef<Decided>(null)
  useEffect(() => {
    const prev = before.current
    before.current = decided
    if (!prev || !decided) return
    const lines: string[] = []
    for (const f of fields) {
      const was = prev.get(f.id)
      const is = decided.get(f.id)
      if (!was || !is || f.type === 'DATE') continue
      const key: MessageKey | null =
        !was.visible && is.visible ? (requiredOf(f, decided) ? 'sign.logic.shownRequired' : 'sign.logic.shown')
          : was.visible && !is.visible ? 'sign.logic.hidden'
            : is.visible && !was.required && is.required ? 'sign.logic.required'
              : is.visible && was.required && !is.required ? 'sign.logic.optional'
                : null
      if (key) lines.push(t(key, { field: fieldName(f) }))
    }
    if (lines.length) setNews((old) => ({ text: lines.join(' '), n: old.n + 1 }))
  }, [fields, decided])
  return news
}
