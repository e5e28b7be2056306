/** Where the authoring components' token comes from. */
export const PRESIGN_NOTE = `The presign token comes from your backend, which keeps the API key: see
[Introduction](?path=/docs/introduction--docs) for the backend snippet (\`examples/backend.ts\`),
which also serves these demos.`

/** The docs page text of a component: what it is for, the code to copy, and where its token comes from. */
export function componentDocs(lead: string, usage: string, note = PRESIGN_NOTE): string {
  return `${lead}

\`\`\`tsx
${usage.trim()}
\`\`\`

${note}`
}

/** How a page asks its backend for a token, as the usage snippets show it. */
export const FETCH_TOKEN = `const token = await fetch('/presign', { method: 'POST' }).then((r) => r.json()).then((r) => r.token)`
