/**
 * The filter language of the row query: `key op value` terms joined by `and`.
 *
 *   expr  := term ( "and" term )*          ("and" in any letter case, surrounded by spaces)
 *   term  := key op value
 *   key   := [A-Za-z0-9_@.\-/]+  |  quoted  (a quoted key names a column with other characters)
 *   op    := "=" | "!=" | "<" | "<=" | ">" | ">="   ("==" is read as "=")
 *   value := bare | quoted
 *   bare  := one or more characters other than whitespace, quotes and the operator characters
 *            = ! < > (so `recall@10<0.1` needs no spaces)
 *   quoted:= '…' or "…"; inside, a backslash escapes the next character (\' \" \\), and \n, \t
 *            stand for a newline and a tab
 *
 * Whitespace between the parts is optional. The parser only checks the syntax; whether a key
 * exists and a value fits it is checked by the query (`FilterError`), which knows the file.
 */
import type { FilterOp, FilterTerm } from './types';

/**
 * A syntax error in a filter expression. `position` is 0-based (the character index into the
 * expression); `column` is the same position 1-based, as editors count. The message names what
 * was expected and repeats the expression with a caret under the offending character.
 */
export class WhereSyntaxError extends Error {
  readonly expression: string;
  /** 0-based character index of the problem. */
  readonly position: number;
  /** 1-based column of the problem (position + 1). */
  readonly column: number;
  /** What the parser expected there, e.g. `an operator (= != < <= > >=)`. */
  readonly expected: string;

  constructor(expression: string, position: number, expected: string, found: string) {
    super(
      `${expected} at character ${position + 1} (1-based), found ${found}:\n  ${expression}\n  ${' '.repeat(caretOffset(expression, position))}^`,
    );
    this.name = 'WhereSyntaxError';
    this.expression = expression;
    this.position = position;
    this.column = position + 1;
    this.expected = expected;
  }
}

/** Caret offset in the echoed expression (tabs and newlines are echoed as they are; one column each). */
function caretOffset(expr: string, pos: number): number {
  return Math.min(pos, expr.length);
}

const OPS: readonly FilterOp[] = ['<=', '>=', '!=', '=', '<', '>'];
const OP_CHARS = new Set(['=', '!', '<', '>']);
const KEY_CHAR = /[A-Za-z0-9_@.\-/]/;
const EXPECT_KEY = 'expected a key (e.g. label, pred, correct, confidence, a column name)';
const EXPECT_OP = 'expected an operator (= != < <= > >=)';
const EXPECT_VALUE = 'expected a value (bare, or quoted with \' or ")';
const EXPECT_AND = 'expected "and" or the end of the expression';

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function describe(expr: string, i: number): string {
  if (i >= expr.length) return 'the end of the expression';
  const c = expr[i];
  return isSpace(c) ? 'a space' : JSON.stringify(c);
}

/** Parses a filter expression into terms. An empty (or blank) expression is no term. */
export function parseWhere(expr: string): FilterTerm[] {
  const terms: FilterTerm[] = [];
  let i = 0;
  const n = expr.length;
  const skip = (): void => {
    while (i < n && isSpace(expr[i])) i++;
  };
  skip();
  if (i >= n) return terms;
  for (;;) {
    // key
    skip();
    let key: string;
    if (expr[i] === '"' || expr[i] === "'") {
      key = readQuoted();
      if (key === '') throw new WhereSyntaxError(expr, i - 2, EXPECT_KEY, 'an empty quoted key');
    } else {
      const start = i;
      while (i < n && KEY_CHAR.test(expr[i])) i++;
      if (i === start) throw new WhereSyntaxError(expr, i, EXPECT_KEY, describe(expr, i));
      key = expr.slice(start, i);
    }
    // operator
    skip();
    let op: FilterOp | null = null;
    if (expr.startsWith('==', i)) {
      op = '=';
      i += 2;
    } else {
      for (const o of OPS) {
        if (expr.startsWith(o, i)) {
          op = o;
          i += o.length;
          break;
        }
      }
    }
    if (!op) throw new WhereSyntaxError(expr, i, EXPECT_OP, describe(expr, i));
    // value
    skip();
    let value: string;
    if (i < n && (expr[i] === '"' || expr[i] === "'")) value = readQuoted();
    else {
      const start = i;
      while (i < n && !isSpace(expr[i]) && !OP_CHARS.has(expr[i]) && expr[i] !== '"' && expr[i] !== "'") i++;
      if (i === start) throw new WhereSyntaxError(expr, i, EXPECT_VALUE, describe(expr, i));
      value = expr.slice(start, i);
    }
    terms.push({ key, op, value });
    // "and" or the end
    const beforeSpace = i;
    skip();
    if (i >= n) return terms;
    const hadSpace = i > beforeSpace;
    if (hadSpace && /^and(?=\s|$)/i.test(expr.slice(i, i + 4))) {
      i += 3;
      skip();
      if (i >= n) throw new WhereSyntaxError(expr, i, EXPECT_KEY, describe(expr, i));
      continue;
    }
    throw new WhereSyntaxError(
      expr,
      hadSpace ? i : beforeSpace,
      EXPECT_AND,
      describe(expr, hadSpace ? i : beforeSpace),
    );
  }

  function readQuoted(): string {
    const q = expr[i];
    const open = i;
    i++;
    let out = '';
    while (i < n && expr[i] !== q) {
      if (expr[i] === '\\') {
        if (i + 1 >= n) break;
        const e = expr[i + 1];
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        i += 2;
      } else out += expr[i++];
    }
    if (i >= n)
      throw new WhereSyntaxError(
        expr,
        n,
        `expected a closing ${q} for the quote opened at character ${open + 1}`,
        'the end of the expression',
      );
    i++;
    return out;
  }
}

/** A key or value as the language writes it: bare when it reads back the same, else quoted. */
function quoteIfNeeded(s: string, bare: RegExp): string {
  if (s !== '' && bare.test(s) && !/^and$/i.test(s)) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

/** One term as text, e.g. `label = cat`, `name = "a b"`. */
export function formatTerm(t: FilterTerm): string {
  return `${quoteIfNeeded(t.key, /^[A-Za-z0-9_@.\-/]+$/)} ${t.op} ${quoteIfNeeded(t.value, /^[^\s"'=!<>]+$/)}`;
}

/** Terms as an expression that {@link parseWhere} reads back to the same terms (for chips and headers). */
export function formatWhere(terms: readonly FilterTerm[]): string {
  return terms.map(formatTerm).join(' and ');
}
