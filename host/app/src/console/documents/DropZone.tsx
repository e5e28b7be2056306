import { useId, useState } from 'react'
import './drop-zone.css'

/**
 * Files dropped on the zone or chosen with its button (the visually hidden input's label, which
 * shows the keyboard focus); the hint under it describes the input. A touch screen has nothing to
 * drop: there the zone is its button alone.
 */
export function DropZone(props: { title: string; choose: string; hint: string; accept: string; multiple?: boolean; testId: string; onFiles: (files: File[]) => void }) {
  const [over, setOver] = useState(false)
  const input = useId()
  const hint = useId()
  return (
    <div
      className="docs-new-drop"
      data-over={over || undefined}
      data-testid={props.testId}
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault()
        setOver(false)
        props.onFiles([...e.dataTransfer.files])
      }}
    >
      <p className="docs-new-drop-title" aria-hidden="true">
        {props.title}
      </p>
      <input
        id={input}
        className="sr-only docs-new-input"
        type="file"
        accept={props.accept}
        multiple={props.multiple}
        aria-describedby={hint}
        onChange={(e) => {
          props.onFiles([...(e.target.files ?? [])])
          e.target.value = ''
        }}
      />
      <label htmlFor={input} className="btn btn-secondary docs-new-choose">
        {props.choose}
      </label>
      <p id={hint} className="muted small">
        {props.hint}
      </p>
    </div>
  )
}
