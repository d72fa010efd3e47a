/**
 * Item and user embeddings (`itemEmbeddings`, `userEmbeddings`) for `diversity@K` and
 * `alignment@K`. Formats, by file name:
 * - `.json`: an object `{ "<id>": [v0, v1, …], … }`.
 * - `.csv` / `.tsv`: `id,v0,v1,…`; the first line is a header unless every cell after the first
 *   is a number.
 * - `.npy`: a 2-D float32/float64 matrix (see {@link parseNpy}), row r belonging to the r-th id
 *   of an id list found beside it: `<name>.ids.txt`, `<name>.ids.json`, `<name>.txt` or
 *   `<name>.json` (first that exists; text = one id a line, JSON = an array of ids).
 *
 * Vectors are stored normalised to unit length (cosine similarity is then a dot product). A
 * vector of zeros or with a non-finite value has no direction: it is treated as missing, with a
 * warning. Ids that the evaluation never meets are ignored; every vector must have the same length.
 */
import { access, readFile } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { EvalLensError, fail, type Warnings } from '../../diagnostics';
import { linkedOutside } from '../../workspacePath';
import type { Embeddings, IdIndex } from '../../data/rankingData';
import { delimiterOf, forEachLine, splitDelimited } from './lines';
import { readNpy } from '../npy';
import { TOO_DEEP, tooDeepAt } from '../../config/jsonDepth';

/** Candidate id-list files for a `.npy` path, in the order they are tried. */
export function npyIdListCandidates(npyPath: string): string[] {
  const base = npyPath.replace(/\.npy$/i, '');
  return [`${base}.ids.txt`, `${base}.ids.json`, `${base}.txt`, `${base}.json`];
}

export interface EmbeddingsRead {
  emb: Embeddings;
  /** Id-list file used for a `.npy`, if any. */
  idFile?: string;
}

/**
 * Reads embeddings for the ids of `index` (the index is not extended). `label` and `labelOf`
 * give the names used in messages (paths as the user wrote them). `root` is the workspace root
 * (default: the folder of `path`): the id list beside a `.npy` is a path the files choose, like a
 * config path, so one that is a symbolic link out of it is refused without being opened.
 */
export async function readEmbeddings(
  path: string,
  label: string,
  index: IdIndex,
  warnings: Warnings,
  what: 'item' | 'user',
  root: string = dirname(path),
): Promise<EmbeddingsRead> {
  const ext = extname(path).toLowerCase();
  let dim = -1;
  let unit = new Float64Array(0);
  const norms = new Float64Array(index.size);
  const present = new Uint8Array(index.size);
  let zero = 0;
  let matched = 0;
  const put = (id: string, vec: ArrayLike<number>, loc: { file: string; line?: number }) => {
    if (dim < 0) {
      dim = vec.length;
      if (dim === 0) fail('bad-value', loc, `expected a non-empty vector for ${what} "${id}", got an empty one.`);
      unit = new Float64Array(index.size * dim);
    } else if (vec.length !== dim)
      fail(
        'bad-value',
        loc,
        `expected a vector of length ${dim} (as the first one) for ${what} "${id}", got ${vec.length}.`,
      );
    const k = index.get(id);
    if (k < 0) return;
    matched++;
    let ss = 0;
    for (let j = 0; j < dim; j++) ss += vec[j] * vec[j];
    if (ss > 1e-290 && ss < Infinity) {
      norms[k] = Math.sqrt(ss);
      const inv = 1 / norms[k];
      for (let j = 0; j < dim; j++) unit[k * dim + j] = vec[j] * inv;
      present[k] = 1;
      return;
    }
    // The squares overflow or underflow (vectors around 1e200 or 1e-170): divided by the largest
    // |value| first, the vector keeps its direction instead of reading as "all zeros".
    let big = 0;
    for (let j = 0; j < dim; j++) big = Math.max(big, Math.abs(vec[j]));
    if (!(big > 0) || !Number.isFinite(big)) {
      zero++;
      return;
    }
    ss = 0;
    for (let j = 0; j < dim; j++) ss += (vec[j] / big) ** 2;
    const root = Math.sqrt(ss);
    norms[k] = big * root;
    for (let j = 0; j < dim; j++) unit[k * dim + j] = vec[j] / big / root;
    present[k] = 1;
  };
  let idFile: string | undefined;
  if (ext === '.npy') {
    const m = await readNpy(path, label);
    const cands = npyIdListCandidates(path);
    for (const c of cands) {
      const real = linkedOutside(root, c);
      if (real !== null)
        fail(
          'config-path',
          { file: label },
          `the id list ${basename(c)} beside it is a symbolic link to ${real}, outside the workspace ${root}; it was not read. Copy the file into the workspace.`,
        );
      try {
        await access(c);
        idFile = c;
        break;
      } catch {
        /* try the next name */
      }
    }
    if (!idFile)
      fail(
        'missing-file',
        { file: label },
        `expected an id list beside the .npy (one of ${cands.map((c) => c.slice(c.lastIndexOf('/') + 1)).join(', ')}), got none.`,
      );
    const ids = await readIdList(idFile);
    if (ids.length !== m.rows)
      fail('bad-value', { file: idFile }, `expected ${m.rows} ids (one per row of ${label}), got ${ids.length}.`);
    for (let r = 0; r < m.rows; r++) put(ids[r], m.data.subarray(r * m.cols, (r + 1) * m.cols), { file: label });
  } else if (ext === '.json') {
    let obj: unknown;
    try {
      const text = await readFile(path, 'utf8');
      checkDepth(text, label);
      obj = JSON.parse(text);
    } catch (e) {
      if (e instanceof EvalLensError) throw e;
      fail(
        'bad-json',
        { file: label },
        `expected a JSON object {id: [numbers]}, got ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no file' : `invalid JSON (${(e as Error).message})`}.`,
      );
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
      fail('bad-json', { file: label }, 'expected a JSON object {id: [numbers]}, got another value.');
    for (const [id, v] of Object.entries(obj as Record<string, unknown>)) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'number'))
        fail(
          'bad-value',
          { file: label, column: id },
          `expected an array of numbers for ${what} "${id}", got ${JSON.stringify(v).slice(0, 40)}.`,
        );
      put(id, v as number[], { file: label });
    }
  } else {
    let delim = ',';
    let first = true;
    await forEachLine(
      path,
      (line, lineNo) => {
        if (line.trim() === '') return;
        if (first) delim = delimiterOf(line);
        const cells = splitDelimited(line, delim, label, lineNo);
        const nums = cells.slice(1).map((c) => (c === '' ? NaN : Number(c)));
        if (first) {
          first = false;
          if (nums.some((x) => !Number.isFinite(x))) return; // a header
        }
        const bad = nums.findIndex((x) => !Number.isFinite(x));
        if (bad >= 0)
          fail(
            'bad-value',
            { file: label, line: lineNo, column: `v${bad}` },
            `expected a finite number, got "${cells[bad + 1]}".`,
          );
        put(cells[0], nums, { file: label, line: lineNo });
      },
      { label },
    );
  }
  if (dim < 0) fail('empty-file', { file: label }, `expected ${what} embeddings, got none.`);
  if (zero > 0)
    warnings.note(
      'embedding-zero-vector',
      `${label}: ${zero} ${what} vector(s) are all zeros or not finite; they are treated as missing.`,
      { file: label, count: zero },
    );
  if (matched === 0)
    warnings.note('embedding-no-match', `${label}: none of the ${what} ids matches an id of the evaluation.`, {
      file: label,
    });
  return { emb: { file: label, dim, unit, present, norms }, idFile };
}

async function readIdList(path: string): Promise<string[]> {
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  if (path.toLowerCase().endsWith('.json')) {
    checkDepth(text, path);
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      return fail(
        'bad-json',
        { file: path },
        `expected a JSON array of ids, got invalid JSON (${(e as Error).message}).`,
      );
    }
    if (!Array.isArray(v)) fail('bad-json', { file: path }, 'expected a JSON array of ids, got another value.');
    return v.map(String);
  }
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** JSON nested deeper than the inputs' bound is refused before it is parsed (the messages and checks after recurse). */
function checkDepth(text: string, file: string): void {
  const at = tooDeepAt(text);
  if (at < 0) return;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  fail('json-too-deep', { file, line }, TOO_DEEP);
}
