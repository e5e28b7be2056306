/**
 * Validates the conditions and formulas of an envelope's whole field list before the server stores
 * it. The input is untrusted JSON: every shape is checked here, and nothing throws.
 */
import { hasOptions, isNumericTest, isRuleTest, testFits, valueNeed } from './conditions.js'
import { hasFormula } from './decide.js'
import { parseFormula } from './formula.js'
import { indexLabels, isPlainRecord, labelOf, resolveLabel } from './labels.js'
import { parseNumber } from './numbers.js'
import { EFFECTS, MATCHES, MAX_RULES, RULE_TESTS, type Condition, type LogicField, type LogicIssue } from './types.js'

type Path = (string | number)[]

/** A formula reads numbers: a NUMBER's (or its computed value) and the count of a CHECKBOX's ticks. */
const FORMULA_READS: ReadonlySet<string> = new Set(['NUMBER', 'CHECKBOX'])

/** Pulls `condition` and `formula` out of a field's fieldMeta as they are: checkFieldLogic judges them. */
export function readLogic(fieldMeta: unknown): { condition?: Condition; formula?: string } {
  const logic: { condition?: Condition; formula?: string } = {}
  if (!isPlainRecord(fieldMeta)) return logic
  // Unverified on purpose: a malformed value is kept so that check can say what is wrong with it.
  if (Object.hasOwn(fieldMeta, 'condition') && fieldMeta.condition != null) logic.condition = fieldMeta.condition as Condition
  if (Object.hasOwn(fieldMeta, 'formula') && fieldMeta.formula != null) logic.formula = fieldMeta.formula as string
  return logic
}

function quoted(value: unknown): string {
  return typeof value === 'string' ? `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"` : typeof value
}

export function checkFieldLogic(fields: readonly LogicField[]): LogicIssue[] {
  // Entries that are not even objects are skipped: there is nothing to attach an issue to.
  const list: LogicField[] = Array.isArray(fields) ? fields.filter((f): f is LogicField => isPlainRecord(f)) : []
  const byLabel = indexLabels(list)
  const issues: LogicIssue[] = []
  // For each field, the fields it reads and where in its fieldMeta it first reads each.
  const edges: Map<number, Path>[] = list.map(() => new Map())

  list.forEach((field, i) => {
    const report = (path: Path, message: string): void => { issues.push({ fieldId: field.id, path, message }) }

    // The field a reference names, or null after reporting why there is none.
    const target = (label: string, path: Path, what: string): LogicField | null => {
      const found = resolveLabel(byLabel, label)
      if ('missing' in found) { report(path, `No field is labelled "${label.trim()}"`); return null }
      if ('ambiguous' in found) {
        report(path, `${found.ambiguous.length} fields are labelled "${label.trim()}": give them different labels`)
        return null
      }
      if (found.index === i) { report(path, `${what} cannot refer to its own field`); return null }
      const edgesOf = edges[i] as Map<number, Path>
      if (!edgesOf.has(found.index)) edgesOf.set(found.index, path)
      return list[found.index] as LogicField
    }

    if (hasFormula(field)) {
      const formula: unknown = field.formula
      if (field.type !== 'NUMBER') report(['formula'], `Only a NUMBER field can have a formula, not a ${field.type} field`)
      else if (typeof formula !== 'string') report(['formula'], 'The formula must be text')
      else {
        const parsed = parseFormula(formula)
        if ('error' in parsed) report(['formula'], `${parsed.error} (at character ${parsed.at + 1})`)
        else {
          for (const label of parsed.references) {
            const other = target(label, ['formula'], 'A formula')
            if (other && !FORMULA_READS.has(other.type)) {
              report(['formula'], `A formula reads NUMBER and CHECKBOX fields only; "${label}" is a ${other.type} field`)
            }
          }
        }
      }
    }

    const condition: unknown = field.condition
    if (condition === undefined || condition === null) return
    if (!isPlainRecord(condition)) { report(['condition'], 'The condition must be an object with effect, match and rules'); return }
    if (!(EFFECTS as readonly unknown[]).includes(condition.effect)) {
      report(['condition', 'effect'], `Unknown effect ${quoted(condition.effect)}: use one of ${EFFECTS.join(', ')}`)
    }
    if (!(MATCHES as readonly unknown[]).includes(condition.match)) {
      report(['condition', 'match'], `Unknown match ${quoted(condition.match)}: use one of ${MATCHES.join(', ')}`)
    }
    const rules = condition.rules
    if (!Array.isArray(rules)) { report(['condition', 'rules'], 'The rules must be a list'); return }
    if (rules.length === 0) { report(['condition', 'rules'], 'A condition needs at least one rule'); return }
    if (rules.length > MAX_RULES) { report(['condition', 'rules'], `A condition has at most ${MAX_RULES} rules`); return }

    rules.forEach((rule: unknown, k) => {
      const at = (...rest: string[]): Path => ['condition', 'rules', k, ...rest]
      if (!isPlainRecord(rule)) { report(at(), 'A rule must be an object with field, test and value'); return }
      const { field: label, test, value } = rule
      const testOk = isRuleTest(test)
      if (!testOk) report(at('test'), `Unknown test ${quoted(test)}: use one of ${RULE_TESTS.join(', ')}`)
      const valueOk = value === undefined || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
      if (!valueOk) report(at('value'), 'The value must be text or a number')
      if (typeof label !== 'string' || label.trim() === '') { report(at('field'), 'A rule must name a field by its label'); return }
      const other = target(label, at('field'), 'A condition')
      if (!other || !testOk) return

      if (!testFits(test, other.type)) {
        report(at('test'), `The test "${test}" does not apply to a ${other.type} field ("${label.trim()}")`)
        return
      }
      const need = valueNeed(test)
      if (need === 'required' && value === undefined) { report(at('value'), `The test "${test}" needs a value`); return }
      if (need === 'forbidden' && value !== undefined) { report(at('value'), `The test "${test}" takes no value`); return }
      if (value === undefined || !valueOk) return
      const text = String(value)
      if (hasOptions(other.type)) {
        const options = Array.isArray(other.options) ? other.options : []
        if (!options.includes(text)) report(at('value'), `"${text}" is not one of the options of "${label.trim()}"`)
      } else if ((other.type === 'NUMBER' || isNumericTest(test)) && parseNumber(text) === null) {
        report(at('value'), `The test "${test}" compares numbers: "${text}" is not a number`)
      }
    })
  })

  reportCycles(list, edges, issues)
  return issues
}

/** Strongly connected components (iterative Tarjan: no recursion, whatever the number of fields). */
function components(edges: readonly Map<number, Path>[]): number[][] {
  const n = edges.length
  const index = new Int32Array(n).fill(-1)
  const low = new Int32Array(n)
  const onStack = new Uint8Array(n)
  const stack: number[] = []
  const found: number[][] = []
  const targets = edges.map((m) => [...m.keys()])
  let counter = 0
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue
    const work: [node: number, next: number][] = [[root, 0]]
    index[root] = low[root] = counter++
    stack.push(root)
    onStack[root] = 1
    while (work.length > 0) {
      const frame = work[work.length - 1] as [number, number]
      const v = frame[0]
      const next = targets[v] as number[]
      if (frame[1] < next.length) {
        const w = next[frame[1]++] as number
        if (index[w] === -1) {
          index[w] = low[w] = counter++
          stack.push(w)
          onStack[w] = 1
          work.push([w, 0])
        } else if (onStack[w]) {
          low[v] = Math.min(low[v] as number, index[w] as number)
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low[parent[0]] = Math.min(low[parent[0]] as number, low[v] as number)
      if (low[v] === index[v]) {
        const component: number[] = []
        let w: number
        do {
          w = stack.pop() as number
          onStack[w] = 0
          component.push(w)
        } while (w !== v)
        found.push(component)
      }
    }
  }
  return found
}

// "A" → "B" → "A"; a long cycle is cut after its first fields so the message stays readable.
const NAMED_IN_CYCLE = 10
function around(names: string[]): string {
  if (names.length <= NAMED_IN_CYCLE) return [...names, names[0]].join(' → ')
  return `${names.slice(0, NAMED_IN_CYCLE).join(' → ')} → … (${names.length} fields) → ${names[0]}`
}

// One issue per cycle, on its first field, naming the fields around it ("A" → "B" → "A").
function reportCycles(list: readonly LogicField[], edges: readonly Map<number, Path>[], issues: LogicIssue[]): void {
  const cycles = components(edges).filter((c) => c.length > 1)
  for (const component of cycles) {
    const members = new Set(component)
    const start = component.reduce((a, b) => Math.min(a, b))
    // Breadth-first from the start back to it, within the component: a shortest cycle.
    const cameFrom = new Map<number, number>()
    const queue = [start]
    let last = -1
    for (let q = 0; q < queue.length && last < 0; q++) {
      const v = queue[q] as number
      for (const w of (edges[v] as Map<number, Path>).keys()) {
        if (!members.has(w)) continue
        if (w === start) { last = v; break }
        if (!cameFrom.has(w)) { cameFrom.set(w, v); queue.push(w) }
      }
    }
    const cycle = [start]
    for (let v = last; v !== start && v >= 0; v = cameFrom.get(v) ?? -1) cycle.splice(1, 0, v)
    const second = cycle[1] ?? start
    const name = (i: number): string => {
      const field = list[i] as LogicField
      return `"${labelOf(field) ?? `field ${field.id}`}"`
    }
    issues.push({
      fieldId: (list[start] as LogicField).id,
      path: (edges[start] as Map<number, Path>).get(second) ?? [],
      message: `Circular reference: ${around(cycle.map(name))}`,
    })
  }
}
