import { cyclicEdges, loopThrough, type Graph } from './graph.js'

/** Folders of host/server below the doors: they never reach up into the API, the console or the pages. */
const LOWER = /^host\/server\/(domain|auth|people|pdf|db|jobs)\//
const UPPER = /^host\/(server\/(api|console)\/|app\/)/

/**
 * What breaks the layers, one readable line each: an import on a cycle that `allowed` does not list
 * (printed as the whole loop), an allowed import that no longer closes a cycle (so the list only
 * shrinks), and a lower folder of the server importing an upper one.
 */
export function layerProblems(graph: Graph, allowed: readonly string[]): string[] {
  const problems: string[] = []
  const onCycle = cyclicEdges(graph)
  const listed = new Set(allowed)
  for (const edge of onCycle) {
    if (listed.has(edge)) continue
    const [from, to] = edge.split(' -> ') as [string, string]
    problems.push(`import cycle: ${loopThrough(graph, from, to)}`)
  }
  const current = new Set(onCycle)
  for (const edge of allowed) if (!current.has(edge)) problems.push(`no longer on a cycle, delete it from the allowed list: ${edge}`)
  for (const [from, targets] of graph) {
    if (!LOWER.test(from)) continue
    for (const to of targets) {
      if (!UPPER.test(to)) continue
      problems.push(`layer: ${from} -> ${to} (domain, auth, people, pdf, db and jobs never import api/, console/ or the pages)`)
    }
  }
  return problems
}
