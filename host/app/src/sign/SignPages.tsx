import { useMemo, type MutableRefObject } from 'react'
import type { SignOptions } from '../../../../src/protocol/index.js'
import type { Api } from '../page/api.js'
import { FieldOverlay } from './FieldOverlay.js'
import { SignItem } from './SignItem.js'
import { computedOf, isFilled, isLocked, requiredOf, type Decided, type Progress, type SigningField, type SigningSession, type Values } from './session.js'

/**
 * The envelope's documents in their order, each page with the recipient's fields over it. `refs`
 * gets each field's element, so the guide can move to it and a signature can take its box's shape.
 */
export function SignPages(props: {
  api: Api
  session: SigningSession
  options: SignOptions
  /** The recipient acts (not a copy's receiver): else every field is only shown. */
  action: boolean
  /** The fields shown: none the conditions hide. */
  ordered: SigningField[]
  values: Values
  decided: Decided
  progress: Progress
  currentId: number | null
  refs: MutableRefObject<Map<number, HTMLElement>>
  onOpen: (f: SigningField) => void
}) {
  const { session, ordered, values, refs } = props
  const items = session.envelope.items
  const sortedItems = useMemo(() => [...items].sort((a, b) => a.order - b.order), [items])
  return (
    <>
      {sortedItems.map((item) => (
        <SignItem key={item.id} api={props.api} item={item} multiple={sortedItems.length > 1}>
          {(page) =>
            ordered
              .filter((f) => f.envelopeItemId === item.id && f.page === page)
              .map((f) => (
                <FieldOverlay
                  key={f.id}
                  ref={(el) => void (el ? refs.current.set(f.id, el) : refs.current.delete(f.id))}
                  field={f}
                  value={values[f.id]}
                  filled={isFilled(f, values[f.id])}
                  invalid={props.progress.invalid.includes(f)}
                  required={requiredOf(f, props.decided)}
                  computed={computedOf(f, props.decided)}
                  locked={!props.action || isLocked(f, session, props.options)}
                  current={props.currentId === f.id}
                  onOpen={props.onOpen}
                />
              ))
          }
        </SignItem>
      ))}
    </>
  )
}
