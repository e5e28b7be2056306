/** The docs page text of a component: what it is for and the code to copy. */
export function componentDocs(lead: string, usage: string): string {
  return `${lead}

\`\`\`tsx
${usage.trim()}
\`\`\`

The presign token comes from your backend, which keeps the API key: see
[Introduction](?path=/docs/introduction--docs) for the backend snippet (\`examples/backend.ts\`),
which also serves these demos.`
}

/** How a page asks its backend for a token, as the usage snippets show it. */
export const FETCH_TOKEN = `const token = await fetch('/presign', { method: 'POST' }).then((r) => r.json()).then((r) => r.token)`
