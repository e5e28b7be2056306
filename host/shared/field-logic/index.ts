/**
 * Conditional fields and formulas: one pure module for the signing pages and the server alike
 * (no Node APIs, no dependencies, no eval).
 */
export type { Condition, FieldState, FieldValue, FieldValues, LogicField, LogicIssue, Rule, RuleTest } from './types.js'
export { EFFECTS, MATCHES, MAX_RULES, RULE_TESTS } from './types.js'
export { formatNumber, parseNumber, sameNumber } from './numbers.js'
export {
  computeFormula, evaluateFormula, parseFormula,
  MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH, MAX_FORMULA_MAGNITUDE, MAX_FORMULA_TOKENS, MAX_ROUND_DIGITS,
} from './formula.js'
export type { Expr, FormulaError, FormulaFunction, ParsedFormula, ReadField } from './formula.js'
export { testFits, valueNeed } from './conditions.js'
export { decideFields } from './decide.js'
export { checkFieldLogic, readLogic } from './check.js'
export { ALWAYS_REQUIRED, baseRequired, fieldValueOf, hasLogic, logicFieldOf } from './adapt.js'
export { fieldsRead, labelsRead } from './reads.js'
