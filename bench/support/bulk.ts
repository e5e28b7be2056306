/** A bulk send for the benchmarks: a one-role template, a table of `rows` people, started and waited for. */

type Call = (p: string, init?: RequestInit) => Promise<{ status: number; body: any }>

/** API v2 at `base` with `token`: JSON in and out, forms as they are. */
export function client(base: string, token: string): Call {
  return async (p, init = {}) => {
    const res = await fetch(base + p, { ...init, headers: { Authorization: token, ...(typeof init.body === 'string' ? { 'Content-Type': 'application/json' } : {}) } })
    return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? await res.json() : await res.text() }
  }
}

/** Starts a bulk send of `rows` documents from a new one-role template made from `pdf`; its id. */
export async function startBulk(call: Call, pdf: Uint8Array, rows: number, tag: string): Promise<string> {
  const fd = new FormData()
  fd.set('payload', JSON.stringify({ type: 'TEMPLATE', title: 'Bulk', recipients: [{ email: '', name: 'Client', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 20, height: 5 }] }] }))
  fd.append('files', new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'bulk.pdf')
  const made = await call('/envelope/create', { method: 'POST', body: fd })
  if (made.status !== 200) throw new Error(`create answered ${made.status}: ${JSON.stringify(made.body)}`)
  const template = (await call(`/envelope/${made.body.id}`)).body
  const csv = ['Name,E-mail', ...Array.from({ length: rows }, (_, i) => `Person ${i},${tag}-${i}@example.com`)].join('\n')
  const start = new FormData()
  start.set('payload', JSON.stringify({ templateId: template.id, mapping: { recipients: [{ recipientId: template.recipients[0].id, email: 'E-mail', name: 'Name' }] } }))
  start.set('file', new Blob([csv], { type: 'text/csv' }), 'people.csv')
  const started = await call('/envelope/bulk-send', { method: 'POST', body: start })
  if (started.status !== 200) throw new Error(`bulk-send answered ${started.status}: ${JSON.stringify(started.body)}`)
  return started.body.id
}

/** Waits for a bulk send to be done; its last status. */
export async function bulkDone(call: Call, id: string, timeoutMs = 600_000): Promise<{ sent: number; refused: number; status: string }> {
  for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const { body } = await call(`/envelope/bulk-send/${id}`)
    if (body.status === 'DONE') return body
    if (Date.now() > until) throw new Error(`bulk send ${id} was not done within ${timeoutMs} ms: ${JSON.stringify(body)}`)
  }
}
