/**
 * The formula language of NUMBER fields: numbers, + - * /, unary minus, parentheses, round/min/max/sum
 * and references to other fields by label ({Unit price} or a bare identifier). Hand-written
 * tokenizer and recursive-descent parser, no eval: the source is untrusted text from the sender.
 */
import { formatNumber } from './numbers.js'

/** Caps that keep parsing and evaluation small and the recursion shallow on hostile input. */
export const MAX_FORMULA_LENGTH = 500
export const MAX_FORMULA_DEPTH = 32
export const MAX_FORMULA_TOKENS = 100
export const MAX_ROUND_DIGITS = 10
/** Numbers from here on would print in exponent notation: too large for a form. */
export const MAX_FORMULA_MAGNITUDE = 1e21

export type FormulaFunction = 'round' | 'min' | 'max' | 'sum'
const FUNCTIONS: ReadonlySet<string> = new Set<FormulaFunction>(['round', 'min', 'max', 'sum'])

export type Expr =
  | { kind: 'number'; value: number }
  | { kind: 'ref'; label: string; at: number }
  | { kind: 'negate'; operand: Expr }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: Expr; right: Expr }
  | { kind: 'call'; fn: FormulaFunction; args: Expr[]; at: number }

/** What went wrong and at which character (0-based index into the source). */
export interface FormulaError { error: string; at: number }

export interface ParsedFormula {
  expr: Expr
  /** The labels referred to, each once, in order of appearance. */
  references: string[]
}

type Token =
  | { kind: 'number'; value: number; at: number; text: string }
  | { kind: 'ident'; name: string; at: number }
  | { kind: 'ref'; label: string; at: number; text: string }
  | { kind: 'punct'; char: '+' | '-' | '*' | '/' | '(' | ')' | ','; at: number }

const IDENT_START = /[A-Za-z_]/
const IDENT_PART = /[A-Za-z0-9_]/
const DIGIT = /[0-9]/
const WHITESPACE = /\s/

// Shows a character in a message; invisible ones and lone surrogates as U+XXXX.
function quoteChar(source: string, at: number): string {
  const code = source.codePointAt(at) ?? 0
  const printable = code >= 0x20 && !(code >= 0x7f && code <= 0x9f) && !(code >= 0xd800 && code <= 0xdfff)
  return printable ? `"${String.fromCodePoint(code)}"` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
}

function tokenize(source: string): Token[] | FormulaError {
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const c = source.charAt(i)
    if (WHITESPACE.test(c)) { i++; continue }
    if (tokens.length >= MAX_FORMULA_TOKENS) {
      return { error: `The formula has more than ${MAX_FORMULA_TOKENS} parts`, at: i }
    }
    const start = i
    if (DIGIT.test(c) || (c === '.' && DIGIT.test(source.charAt(i + 1)))) {
      while (DIGIT.test(source.charAt(i))) i++
      if (source.charAt(i) === '.' && DIGIT.test(source.charAt(i + 1))) {
        i++
        while (DIGIT.test(source.charAt(i))) i++
      }
      const text = source.slice(start, i)
      const value = Number(text)
      if (!(Math.abs(value) < MAX_FORMULA_MAGNITUDE)) return { error: 'The number is too large', at: start }
      tokens.push({ kind: 'number', value, at: start, text })
    } else if (IDENT_START.test(c)) {
      while (IDENT_PART.test(source.charAt(i))) i++
      tokens.push({ kind: 'ident', name: source.slice(start, i), at: start })
    } else if (c === '{') {
      const close = source.indexOf('}', i + 1)
      const open = source.indexOf('{', i + 1)
      if (close < 0 || (open >= 0 && open < close)) return { error: 'A "{" is not closed by "}"', at: start }
      const label = source.slice(i + 1, close).trim()
      if (label === '') return { error: 'Empty field reference "{}"', at: start }
      i = close + 1
      tokens.push({ kind: 'ref', label, at: start, text: source.slice(start, i) })
    } else if (c === '+' || c === '-' || c === '*' || c === '/' || c === '(' || c === ')' || c === ',') {
      i++
      tokens.push({ kind: 'punct', char: c, at: start })
    } else {
      return { error: `Unexpected character ${quoteChar(source, i)}`, at: start }
    }
  }
  return tokens
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'number': return `"${token.text}"`
    case 'ident': return `"${token.name}"`
    case 'ref': return `"${token.text}"`
    case 'punct': return `"${token.char}"`
  }
}

// Thrown inside the parser only, caught by parseFormula: keeps the descent functions readable.
class Stop {
  constructor(readonly failure: FormulaError) {}
}

/** Parses a formula into its AST, or says what is wrong and where. Never throws. */
export function parseFormula(source: string): ParsedFormula | FormulaError {
  if (typeof source !== 'string') return { error: 'The formula must be text', at: 0 }
  if (source.length > MAX_FORMULA_LENGTH) {
    return { error: `The formula is longer than ${MAX_FORMULA_LENGTH} characters`, at: MAX_FORMULA_LENGTH }
  }
  const tokens = tokenize(source)
  if (!Array.isArray(tokens)) return tokens
  if (tokens.length === 0) return { error: 'The formula is empty', at: 0 }

  let pos = 0
  let depth = 0
  const references: string[] = []
  const seen = new Set<string>()
  const fail = (error: string, at: number): never => { throw new Stop({ error, at }) }
  const peek = (): Token | undefined => tokens[pos]
  const isPunct = (t: Token | undefined, char: string): boolean => t?.kind === 'punct' && t.char === char
  const expectClose = (openedAt: number): void => {
    const t = peek()
    if (isPunct(t, ')')) { pos++; return }
    if (t === undefined) fail(`A "(" is not closed`, openedAt)
    else fail(`Expected ")" but found ${describe(t)}`, t.at)
  }
  const enter = (at: number): void => {
    if (++depth > MAX_FORMULA_DEPTH) fail(`The formula nests deeper than ${MAX_FORMULA_DEPTH} levels`, at)
  }

  // expression := term (('+' | '-') term)*
  const expression = (): Expr => {
    let left = term()
    for (let t = peek(); t?.kind === 'punct' && (t.char === '+' || t.char === '-'); t = peek()) {
      pos++
      left = { kind: 'binary', op: t.char, left, right: term() }
    }
    return left
  }
  // term := unary (('*' | '/') unary)*
  const term = (): Expr => {
    let left = unary()
    for (let t = peek(); t?.kind === 'punct' && (t.char === '*' || t.char === '/'); t = peek()) {
      pos++
      left = { kind: 'binary', op: t.char, left, right: unary() }
    }
    return left
  }
  // unary := '-'* primary; a run of minus signs folds to one (or none) without recursion.
  const unary = (): Expr => {
    let negate = false
    while (isPunct(peek(), '-')) { pos++; negate = !negate }
    const operand = primary()
    return negate ? { kind: 'negate', operand } : operand
  }
  const primary = (): Expr => {
    const t = peek()
    if (t === undefined) return fail('The formula ends too early', source.length)
    pos++
    switch (t.kind) {
      case 'number': return { kind: 'number', value: t.value }
      case 'ref': return reference(t.label, t.at)
      case 'ident': {
        const opens = isPunct(peek(), '(')
        if (FUNCTIONS.has(t.name)) {
          if (!opens) fail(`"${t.name}" is a function: write ${t.name}(…)`, t.at)
          return call(t.name as FormulaFunction, t.at)
        }
        if (opens) fail(`Unknown function "${t.name}"`, t.at)
        return reference(t.name, t.at)
      }
      case 'punct': {
        if (t.char === '(') {
          enter(t.at)
          const inner = expression()
          expectClose(t.at)
          depth--
          return inner
        }
        return fail(`Unexpected ${describe(t)}`, t.at)
      }
    }
  }
  const reference = (label: string, at: number): Expr => {
    if (!seen.has(label)) { seen.add(label); references.push(label) }
    return { kind: 'ref', label, at }
  }
  const call = (fn: FormulaFunction, at: number): Expr => {
    const open = tokens[pos]
    pos++ // the "("
    enter(open?.at ?? at)
    const args: Expr[] = []
    if (!isPunct(peek(), ')')) {
      args.push(expression())
      while (isPunct(peek(), ',')) { pos++; args.push(expression()) }
    }
    expectClose(open?.at ?? at)
    depth--
    if (args.length === 0) fail(`${fn}(…) needs at least one argument`, at)
    if (fn === 'round' && args.length > 2) fail('round(…) takes a number and, optionally, the digits to keep', at)
    return { kind: 'call', fn, args, at }
  }

  try {
    const expr = expression()
    const rest = peek()
    if (rest !== undefined) fail(`Unexpected ${describe(rest)}`, rest.at)
    return { expr, references }
  } catch (e) {
    if (e instanceof Stop) return e.failure
    throw e
  }
}

/** What a reference reads: a number, or why the field cannot give one. */
export type ReadField = (label: string) => number | { error: string }

class EvalStop {
  constructor(readonly error: string) {}
}

// Half away from zero; the scaled value is first cut to 15 significant digits so that a decimal
// like 1.005 (stored as 1.00499…) rounds as written.
function roundTo(x: number, digits: number): number {
  const scale = 10 ** digits
  const scaled = Math.abs(x) * scale
  if (!Number.isFinite(scaled) || scaled >= 2 ** 53) return x
  const rounded = Math.round(Number(scaled.toPrecision(15))) / scale
  return x < 0 ? -rounded : rounded
}

function finite(n: number): number {
  if (!(Math.abs(n) < MAX_FORMULA_MAGNITUDE)) throw new EvalStop(Number.isNaN(n) ? 'The result is not a number' : 'The result is too large')
  return n
}

/** Evaluates a parsed formula. Never throws; errors are values. */
export function evaluateFormula(expr: Expr, read: ReadField): { value: number } | { error: string } {
  const evaluate = (e: Expr): number => {
    switch (e.kind) {
      case 'number': return e.value
      case 'ref': {
        const got = read(e.label)
        if (typeof got !== 'number') throw new EvalStop(got.error)
        return finite(got)
      }
      case 'negate': return -evaluate(e.operand)
      case 'binary': {
        const left = evaluate(e.left)
        const right = evaluate(e.right)
        switch (e.op) {
          case '+': return finite(left + right)
          case '-': return finite(left - right)
          case '*': return finite(left * right)
          case '/':
            if (right === 0) throw new EvalStop('Division by zero')
            return finite(left / right)
        }
      }
      case 'call': {
        const args = e.args.map(evaluate)
        switch (e.fn) {
          case 'min': return Math.min(...args)
          case 'max': return Math.max(...args)
          case 'sum': return finite(args.reduce((a, b) => a + b, 0))
          case 'round': {
            const digits = args[1] ?? 0
            if (!Number.isInteger(digits) || digits < 0 || digits > MAX_ROUND_DIGITS) {
              throw new EvalStop(`round(…) keeps 0 to ${MAX_ROUND_DIGITS} digits, not ${formatNumber(digits)}`)
            }
            return finite(roundTo(args[0] ?? 0, digits))
          }
        }
      }
    }
  }
  try {
    return { value: finite(evaluate(expr)) }
  } catch (e) {
    if (e instanceof EvalStop) return { error: e.error }
    throw e
  }
}

/** Parses and evaluates in one go, giving the canonical text of the result. */
export function computeFormula(source: string, read: ReadField): { value: string } | { error: string } {
  const parsed = parseFormula(source)
  if ('error' in parsed) return { error: `${parsed.error} (at character ${parsed.at + 1})` }
  const result = evaluateFormula(parsed.expr, read)
  return 'error' in result ? result : { value: formatNumber(result.value) }
}
