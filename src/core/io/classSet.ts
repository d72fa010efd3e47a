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
    const v = parseNumberText(s);
    if (Number.isFinite(v)) {
      const j = this.index.get(String(v));
      if (j !== undefined) return j;
    }
    return -1;
  }
}

/**
 * A label code with a leading zero (`01`, `007`, `-05`) is text, not a number: `01` and `1` are
 * different labels. Only numbers as numbers are written (`1`, `1.0`, `1e0`) are merged.
 */
export function isCodeText(s: string): boolean {
  return /^[+-]?0\d/.test(s);
}

function isIntegerText(s: string): boolean {
  if (isCodeText(s)) return false;
  const v = parseNumberText(s);
  return Number.isInteger(v);
}

/**
 * The sorted union of the distinct label and prediction texts: numeric order when every value is
 * an integer (`1` and `1.0` then the same class, named `1`), else code-unit string order.
 */
export function sortedClassUnion(values: string[]): { classes: string[]; allIntegers: boolean } {
  const allIntegers = values.every(isIntegerText);
  const classes = allIntegers
    ? [...new Set(values.map((s) => String(parseNumberText(s))))].sort((a, b) => Number(a) - Number(b))
    : [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { classes, allIntegers };
}
