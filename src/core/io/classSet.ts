/**
 * The class set of a classification file: the class names in order, and the look-up of a label or
 * prediction by its text. A value not found that reads as a number is looked up again by its
 * canonical form (`1.0` → `1`); a code with a leading zero (`01`) is text and never merged.
 */
import { fail } from '../diagnostics';
import { parseNumberText } from './numbers';

/**
 * Most classes evaluated. The confusion matrix and the per-class sums are dense (C² cells, and the
 * bootstrap repeats them), so 10,000 classes already mean 10⁸ cells; past that, refuse.
 */
export const MAX_CLASSES = 10000;

export class ClassSet {
  private readonly index = new Map<string, number>();

  /**
   * `names` in class order. More than {@link MAX_CLASSES} is an error naming the data `file`; a
   * repeated name one naming `listFile` (the config file when there is one).
   */
  constructor(
    readonly names: string[],
    file: string,
    listFile: string,
  ) {
    if (names.length > MAX_CLASSES) {
      fail(
        'too-many-classes',
        { file },
        `${names.length} classes, more than the ${MAX_CLASSES} that Eval Lens evaluates (the confusion matrix and per-class sums are dense, C² cells). Group rare classes, or evaluate a subset of the classes.`,
      );
    }
    names.forEach((c, i) => {
      if (this.index.has(c))
        fail(
          'duplicate-classes',
          { file: listFile },
          `class "${c}" appears twice in the class list (expected distinct class names).`,
        );
      this.index.set(c, i);
    });
  }

  get size(): number {
    return this.names.length;
  }

  /** Index of a class name, trying the canonical number form as a fallback; -1 when absent. */
  lookup(s: string): number {
    const i = this.index.get(s);
    if (i !== undefined || isCodeText(s)) return i ?? -1;
    const canonical = numberKey(s);
    return canonical === null ? -1 : (this.index.get(canonical) ?? -1);
  }
}

/**
 * A label code with a leading zero (`01`, `007`, `-05`) is text, not a number: `01` and `1` are
 * different labels. Only numbers as numbers are written (`1`, `1.0`, `1e0`) are merged.
 */
export function isCodeText(s: string): boolean {
  return /^[+-]?0\d/.test(s);
}

const DECIMAL_PARTS = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact decimal text of a number written as an integer (`1.0` and `1e0` → `1`, `-0` → `0`,
 * `1e21` → `1000000000000000000000`), digit for digit: `9007199254740993` stays itself instead of
 * rounding to the double 9007199254740992, so two distinct large integers never become one class.
 * Null when the text is not a finite integer (`1.5`, `abc`, `inf`).
 */
export function integerText(s: string): string | null {
  const m = DECIMAL_PARTS.exec(s.trim());
  if (!m) return null;
  const [, sign, whole, frac = '', exp = '0'] = m;
  if (whole === '' && frac === '') return null;
  if (!Number.isFinite(Number(s))) return null;
  let digits = whole + frac;
  let point = whole.length + Number(exp); // the decimal point's position in `digits`
  const lead = digits.search(/[1-9]/);
  if (lead < 0) return '0';
  digits = digits.slice(lead);
  point -= lead;
  // A finite nonzero value has at most 309 integer digits, so `point` is small here.
  if (point <= 0 || /[1-9]/.test(digits.slice(point))) return null;
  const int = point >= digits.length ? digits + '0'.repeat(point - digits.length) : digits.slice(0, point);
  return sign === '-' ? `-${int}` : int;
}

/**
 * The canonical form a label is looked up by when its text is not a class name: the exact
 * integer text of an integer ({@link integerText}), else the shortest text of its double; null
 * when the text is not a finite number.
 */
export function numberKey(s: string): string | null {
  const int = integerText(s);
  if (int !== null) return int;
  const v = parseNumberText(s);
  return Number.isFinite(v) ? String(v) : null;
}

/**
 * The sorted union of the distinct label and prediction texts: numeric order when every value is
 * an integer (`1` and `1.0` then the same class, named `1`; large integers compared exactly), else
 * code-unit string order.
 */
export function sortedClassUnion(values: string[]): { classes: string[]; allIntegers: boolean } {
  const ints = values.map((s) => (isCodeText(s) ? null : integerText(s)));
  const allIntegers = ints.every((t) => t !== null);
  let classes: string[];
  if (allIntegers) {
    const keyed = [...new Set(ints as string[])].map((t) => ({ t, v: BigInt(t) }));
    keyed.sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : 0));
    classes = keyed.map((k) => k.t);
  } else classes = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { classes, allIntegers };
}
