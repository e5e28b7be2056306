import type { ReactNode } from 'react'

/** One titled card of the account page. */
export function Section({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  return (
    <section className="card card-pad stack account-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {intro && <p className="muted">{intro}</p>}
      {children}
    </section>
  )
}
