// Writes the draw loops that run a xoshiro128** generator in four local variables from templates
// that call rng.ts's `xoshiroNext` on the state array: the step is written out once, in
// lemireDraws.ts (the hottest loop, between the comments that start `// xoshiro128** step: begin`
// and `// xoshiro128** step: end`), and this script puts it in place of each call. Like the byte copies
// the output is made, never committed (git-ignored): gen-byte-copies.mjs runs this script, so the
// build, `npm run typecheck`, the unit test runner and `npm ci` (prepare) make it too.
//
// Why not a function: the state is four 32-bit words. Through `xoshiroNext` (the words in an
// Int32Array) or a function that returns them in an object or array, V8 loads and stores them
// every step, or boxes them: 1.5-3x slower loops (docs/architecture.md, "One xoshiro128** step,
// written once").
//
// In a template, an exported function that takes the generator as `state: Int32Array` writes each
// step as the statement `x = xoshiroNext(state);` (or `const x = …`, `let x = …`). The output has,
// in each such function, `let a = state[0];` … `let d = state[3];` first, `state[0] = a;` … last, and
// the step in place of each call, its output assigned to the statement's variable. A `return` after
// the first step would leave the state behind, and is refused, as are the step's own names (a, b,
// c, d, bb, t) in a template function.
//
//   node scripts/gen-xoshiro-loops.mjs
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedModule, writeIfChanged } from './generated-module.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the step is written out (paths from the repository's root). */
export const STEP_SOURCE = 'src/core/stats/lemireDraws.ts';
/** The templates. */
export const XOSHIRO_TEMPLATES = ['src/core/stats/moduloDraws.ts'];

const BEGIN = '// xoshiro128** step: begin';
const END = '// xoshiro128** step: end';
const STATE = ['a', 'b', 'c', 'd'];
const CALL = /^(\s*)(const |let )?(\w+) = xoshiroNext\(state\);$/;

/** The path of a template's output. */
export function xoshiroLoopsPath(template) {
  return join(dirname(template), `${basename(template, '.ts')}.generated.ts`);
}

/**
 * The step's lines (without indentation or comments) from the text of STEP_SOURCE: the lines
 * between the two marker comments, where the output is the one line `const x = …`.
 */
export function stepLines(text) {
  const lines = text.split('\n').map((l) => l.trim());
  const begins = lines.flatMap((l, i) => (l.startsWith(BEGIN) ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.startsWith(END) ? [i] : []));
  const [from, to] = [begins[0], ends[0]];
  if (begins.length !== 1 || ends.length !== 1 || to < from)
    throw new Error(`${STEP_SOURCE}: expected the lines \`${BEGIN}\` and \`${END}\` once, in that order`);
  const step = lines.slice(from + 1, to).filter((l) => l !== '' && !l.startsWith('//'));
  if (step.filter((l) => l.startsWith('const x = ')).length !== 1)
    throw new Error(`${STEP_SOURCE}: expected the step's output as one line \`const x = …\``);
  return step;
}

/** The text of a template's output (`text`, at path `template`), the step `step` expanded, formatted by Prettier. */
export async function xoshiroLoopsSource(text, template, step) {
  const lines = text.split('\n');
  const out = [];
  let fn = null; // the exported function being read: its stores are due at its closing brace
  for (const line of lines) {
    if (/^import \{ xoshiroNext \} from '\.\/rng';$/.test(line)) continue;
    if (line.startsWith('export function ')) fn = { head: true, steps: 0, name: line.slice(16).split('(')[0] };
    if (fn && fn.head) {
      out.push(line);
      if (line.endsWith('{')) {
        fn.head = false;
        for (let k = 0; k < 4; k++) out.push(`  let ${STATE[k]} = state[${k}];`);
      }
      continue;
    }
    if (fn && line === '}') {
      if (fn.steps === 0) throw new Error(`${template}: ${fn.name} takes no step`);
      for (let k = 0; k < 4; k++) out.push(`  state[${k}] = ${STATE[k]};`);
      out.push(line);
      fn = null;
      continue;
    }
    if (fn && /\b(a|b|c|d|bb|t)\b\s*[,:=)]/.test(line))
      throw new Error(`${template}: ${fn.name} uses a name of the step (a, b, c, d, bb, t): ${line.trim()}`);
    if (fn && fn.steps > 0 && /\breturn\b/.test(line))
      throw new Error(`${template}: ${fn.name} returns after a step, before the state is stored`);
    const call = fn ? CALL.exec(line) : null;
    if (call) {
      const [, indent, decl = '', name] = call;
      for (const l of step) out.push(indent + (l.startsWith('const x = ') ? `${decl}${name} = ${l.slice(10)}` : l));
      fn.steps++;
      continue;
    }
    if (/\bxoshiroNext\b/.test(line) && !line.trimStart().startsWith('*') && !line.trimStart().startsWith('//'))
      throw new Error(
        `${template}: a call of xoshiroNext outside the form \`x = xoshiroNext(state);\`: ${line.trim()}`,
      );
    out.push(line);
  }
  const code = out.join('\n');
  const notice = `Generated by scripts/gen-xoshiro-loops.mjs from ${basename(template)} (the generator in local variables): do not edit.`;
  return generatedModule(code, notice, template);
}

/** Writes each template's output when it is missing or differs from what the template gives now. */
export async function generateXoshiroLoops() {
  const step = stepLines(readFileSync(join(root, STEP_SOURCE), 'utf8'));
  for (const template of XOSHIRO_TEMPLATES) {
    const code = await xoshiroLoopsSource(readFileSync(join(root, template), 'utf8'), template, step);
    writeIfChanged(join(root, xoshiroLoopsPath(template)), code);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await generateXoshiroLoops();
