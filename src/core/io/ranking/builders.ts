/**
 * Growable typed arrays and the CSR builders shared by the ranking readers (JSONL, long CSV,
 * TREC). Readers push (user, item, …) facts as they stream; `finish` turns them into the compact
 * arrays of {@link RankingData}.
 */
import type { Warnings } from '../../diagnostics';
import { VOID_ITEM, type RankedLists } from '../../data/rankingData';

/**
 * Where each key's rows start once the first `n` rows are grouped by key (a counting sort's
 * prefix sums): key k's rows go to [offsets[k], offsets[k + 1]), for keys 0 … nKeys − 1.
 */
export function keyOffsets(keys: Int32Array, n: number, nKeys: number): Int32Array {
  const offsets = new Int32Array(nKeys + 1);
  for (let i = 0; i < n; i++) offsets[keys[i] + 1]++;
  for (let k = 0; k < nKeys; k++) offsets[k + 1] += offsets[k];
  return offsets;
}

/**
 * A typed array that doubles when full. One `push` serves both element types: pushing 15 million
 * values into Int32 and Float64 lists took the same time through one method as through one
 * per type (about 230 ms either way in a micro-benchmark, Node.js 20, on a loaded machine).
 */
abstract class GrowingArray<A extends Int32Array | Float64Array> {
  length = 0;
  protected constructor(public data: A) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new (this.data.constructor as new (n: number) => A)(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  toArray(): A {
    return this.data.slice(0, this.length) as A;
  }
}

export class IntVec extends GrowingArray<Int32Array> {
  constructor(capacity = 1024) {
    super(new Int32Array(Math.max(16, capacity)));
  }
}

export class FloatVec extends GrowingArray<Float64Array> {
  constructor(capacity = 1024) {
    super(new Float64Array(Math.max(16, capacity)));
  }
}

/**
 * A growable Int32 list kept in chunks: the first chunk has the caller's capacity hint (the
 * reader's estimate from the file size), later ones 1M entries. Growing never copies; `toArray`
 * returns a view of the first chunk when everything fit in it (no copy at all) and otherwise
 * allocates the exact size once. A doubling array would peak at up to three times the data.
 */
export class ChunkedIntVec {
  private readonly chunks: Int32Array[] = [];
  private cur: Int32Array;
  private at = 0;
  length = 0;
  constructor(firstCapacity = 1 << 20) {
    this.cur = new Int32Array(Math.max(1024, Math.floor(firstCapacity)));
    this.chunks.push(this.cur);
  }
  push(v: number): void {
    if (this.at === this.cur.length) {
      this.cur = new Int32Array(1 << 20);
      this.chunks.push(this.cur);
      this.at = 0;
    }
    this.cur[this.at++] = v;
    this.length++;
  }
  /** Appends `src[0, n)`. */
  pushMany(src: Int32Array, n: number): void {
    let from = 0;
    while (from < n) {
      if (this.at === this.cur.length) {
        this.cur = new Int32Array(1 << 20);
        this.chunks.push(this.cur);
        this.at = 0;
      }
      const take = Math.min(n - from, this.cur.length - this.at);
      // A plain loop: a list is ~100 ids, where subarray + set (a view object and a call into
      // the runtime per list) cost more than the copy itself.
      const cur = this.cur;
      let at = this.at;
      for (let q = from, e = from + take; q < e; q++) cur[at++] = src[q];
      this.at = at;
      from += take;
    }
    this.length += n;
  }
  toArray(): Int32Array {
    if (this.chunks.length === 1) return this.chunks[0].subarray(0, this.length);
    const out = new Int32Array(this.length);
    let w = 0;
    for (const c of this.chunks) {
      const n = Math.min(c.length, this.length - w);
      out.set(n === c.length ? c : c.subarray(0, n), w);
      w += n;
    }
    return out;
  }
}

/** An Int32 value per dense index (users), 0 = unset, growing as indices appear. */
export class DenseIntMap {
  data = new Int32Array(1 << 12);
  get(k: number): number {
    return k < this.data.length ? this.data[k] : 0;
  }
  set(k: number, v: number): void {
    if (k >= this.data.length) {
      let n = this.data.length * 2;
      while (n <= k) n *= 2;
      const next = new Int32Array(n);
      next.set(this.data);
      this.data = next;
    }
    this.data[k] = v;
  }
}

/**
 * Keys pushed one row at a time, kept as runs of equal consecutive keys: the users of a train
 * file's rows, which usually come grouped by user (1.75 million rows, 100,000 runs), cost one
 * entry per run instead of one per row.
 */
export class KeyRuns {
  private readonly keys = new IntVec(1 << 12);
  private readonly lengths = new IntVec(1 << 12);
  /** Rows pushed. */
  length = 0;

  push(key: number): void {
    const r = this.keys.length - 1;
    if (r >= 0 && this.keys.data[r] === key) this.lengths.data[r]++;
    else {
      this.keys.push(key);
      this.lengths.push(1);
    }
    this.length++;
  }

  /** The runs as arrays (to move them to another thread): key and rows of each run, in order. */
  runs(): { keys: Int32Array; lengths: Int32Array } {
    return { keys: this.keys.toArray(), lengths: this.lengths.toArray() };
  }

  /** The runs given by {@link runs}, their keys replaced by `map[key]`. */
  static fromRuns(keys: Int32Array, lengths: Int32Array, map: Int32Array): KeyRuns {
    const out = new KeyRuns();
    for (let r = 0; r < keys.length; r++) {
      out.keys.push(map[keys[r]]);
      out.lengths.push(lengths[r]);
      out.length += lengths[r];
    }
    return out;
  }

  /** Calls `f(key, rows)` for each run, in order. */
  forEachRun(f: (key: number, rows: number) => void): void {
    for (let r = 0; r < this.keys.length; r++) f(this.keys.data[r], this.lengths.data[r]);
  }

  /** True when the keys never decrease (the rows are grouped by key, in key order). */
  nonDecreasing(): boolean {
    return nonDecreasing(this.keys.data, this.keys.length);
  }

  /** One key per row. */
  toArray(): Int32Array {
    const out = new Int32Array(this.length);
    let w = 0;
    for (let r = 0; r < this.keys.length; r++) {
      const end = w + this.lengths.data[r];
      out.fill(this.keys.data[r], w, end);
      w = end;
    }
    return out;
  }
}

/** True when `keys[0, n)` never decrease: grouping them by key keeps their order. */
export function nonDecreasing(keys: Int32Array, n: number): boolean {
  for (let i = 1; i < n; i++) if (keys[i] < keys[i - 1]) return false;
  return true;
}

/**
 * True when an array of `n` used entries wastes at most an eighth of its room, so that keeping a
 * view of it costs less than the copy it saves would at its peak.
 */
function fitsExactly(a: Int32Array, n: number): boolean {
  return a.length - n <= a.length >> 3;
}

/** Up to 20 first lines plus a count: the shape of a warning about many rows. */
/**
 * Keeps the first of each item in each user's part `[offsets[u], offsets[u + 1])` of `items`,
 * compacted in place (in their order); returns the offsets of the kept parts. With `along`, the
 * kept items' grades move with them and each dropped repeat's line is tallied in `along.repeats`.
 */
export function firstOfEachItem(
  items: Int32Array,
  offsets: Int32Array,
  nUsers: number,
  nItems: number,
  along: { grades: Float64Array; lines: Int32Array; repeats: LineTally } | null,
): Int32Array {
  const stamp = new Int32Array(nItems).fill(-1);
  const kept = new Int32Array(nUsers + 1);
  let w = 0;
  for (let u = 0; u < nUsers; u++) {
    kept[u] = w;
    for (let p = offsets[u]; p < offsets[u + 1]; p++) {
      const it = items[p];
      if (stamp[it] === u) {
        if (along !== null) along.repeats.add(along.lines[p]);
        continue;
      }
      stamp[it] = u;
      items[w] = it;
      if (along !== null) along.grades[w] = along.grades[p];
      w++;
    }
  }
  kept[nUsers] = w;
  return kept;
}

export class LineTally {
  count = 0;
  readonly lines: number[] = [];
  add(line: number, n = 1): void {
    this.count += n;
    if (this.lines.length < 20 && (this.lines.length === 0 || this.lines[this.lines.length - 1] !== line))
      this.lines.push(line);
  }
}

/** Accumulates ranked lists in order; one list per user (a later list of the same user is dropped). */
export class ListBuilder {
  private readonly users = new IntVec();
  private readonly lines = new IntVec();
  private readonly offsets = new IntVec();
  private readonly items: ChunkedIntVec;
  private readonly seenUser = new DenseIntMap();
  readonly duplicateUsers = new LineTally();

  /** `itemCapacity`: expected number of list slots (a hint; more is fine). */
  constructor(itemCapacity = 1 << 20) {
    this.items = new ChunkedIntVec(itemCapacity);
    this.offsets.push(0);
  }

  /** Starts a list; false (and the list must not be filled) when the user already has one. */
  begin(user: number, line: number): boolean {
    if (this.seenUser.get(user) !== 0) {
      this.duplicateUsers.add(line);
      return false;
    }
    this.seenUser.set(user, 1);
    this.users.push(user);
    this.lines.push(line);
    return true;
  }
  item(item: number): void {
    this.items.push(item);
  }
  /** Appends `items[0, n)` to the open list. */
  itemsFrom(items: Int32Array, n: number): void {
    this.items.pushMany(items, n);
  }
  end(): void {
    this.offsets.push(this.items.length);
  }

  get size(): number {
    return this.users.length;
  }

  /** List slots written so far (items of every list). */
  get slots(): number {
    return this.items.length;
  }

  /**
   * The lists, with every repeated occurrence of an item within a list replaced by
   * {@link VOID_ITEM} (first occurrence kept at its rank).
   */
  finish(nItems: number, file: string, warnings: Warnings): { lists: RankedLists; lines: Int32Array } {
    const lists: RankedLists = {
      user: this.users.toArray(),
      offsets: this.offsets.toArray(),
      items: this.items.toArray(),
    };
    const lines = this.lines.toArray();
    markRepeats(lists, lines, nItems, file, warnings);
    if (this.duplicateUsers.count > 0) {
      warnings.add({
        code: 'duplicate-user',
        message: `${file}: ${this.duplicateUsers.count} later list(s) of a user who already had one were ignored (the first list of each user is used).`,
        file,
        line: this.duplicateUsers.lines[0],
        count: this.duplicateUsers.count,
        lines: this.duplicateUsers.lines,
      });
    }
    return { lists, lines };
  }
}

/**
 * Replaces repeats within each list by VOID_ITEM (keeping the repeated item in `lists.repeats`) and
 * warns with their count and first lines.
 */
export function markRepeats(
  lists: RankedLists,
  lines: Int32Array,
  nItems: number,
  file: string,
  warnings: Warnings,
): void {
  const stamp = new Int32Array(nItems);
  const tally = new LineTally();
  let listsWith = 0;
  const { offsets, items } = lists;
  for (let j = 0; j + 1 < offsets.length; j++) {
    const tag = j + 1;
    let had = false;
    for (let p = offsets[j]; p < offsets[j + 1]; p++) {
      const it = items[p];
      if (it < 0) continue;
      if (stamp[it] === tag) {
        items[p] = VOID_ITEM;
        (lists.repeats ??= new Map()).set(p, it);
        tally.add(lines[j]);
        had = true;
      } else stamp[it] = tag;
    }
    if (had) listsWith++;
  }
  if (tally.count > 0) {
    warnings.add({
      code: 'duplicate-items-in-list',
      message:
        `${file}: ${tally.count} repeated item(s) within ${listsWith} list(s). The first occurrence keeps its rank; ` +
        'each repeat keeps its slot (later items keep their ranks) but is never relevant and is ignored by coverage, novelty and the embedding metrics.',
      file,
      line: tally.lines[0],
      count: tally.count,
      lines: tally.lines,
    });
  }
}

/** Accumulates (user, item, grade) ground-truth facts and builds the per-user CSR. */
export class RelBuilder {
  private readonly users = new IntVec();
  private readonly items = new IntVec();
  private readonly grades = new FloatVec();
  private readonly lines = new IntVec();
  /** Users that appear at all (even with grade 0 only), with their first line. */
  private readonly firstLine = new DenseIntMap();
  readonly negative = new LineTally();

  /** Records that the user is in the ground truth (even when none of its items is relevant). */
  touch(user: number, line: number): void {
    if (this.firstLine.get(user) === 0) this.firstLine.set(user, line);
  }

  add(user: number, item: number, grade: number, line: number): void {
    this.touch(user, line);
    if (grade < 0) {
      this.negative.add(line);
      return;
    }
    if (grade === 0) return;
    this.users.push(user);
    this.items.push(item);
    this.grades.push(grade);
    this.lines.push(line);
  }

  /**
   * CSR over `nUsers`; a (user, item) pair given twice keeps its first grade, with a warning.
   * Negative grades count as not relevant (trec_eval's rule), with a warning.
   */
  finish(nUsers: number, nItems: number, file: string, warnings: Warnings) {
    const n = this.users.length;
    const u = this.users.data;
    const offsets = keyOffsets(u, n, nUsers);
    let items: Int32Array;
    let grades: Float64Array;
    let lines: Int32Array;
    if (nonDecreasing(u, n) && fitsExactly(this.items.data, n)) {
      // Facts already grouped by user in user order (a JSONL run's inline lists): the grouping
      // below would copy them into the same order. The builder's own arrays are used instead
      // (its capacity is close to the count), three arrays fewer at the peak of the loading.
      items = this.items.data.subarray(0, n);
      grades = this.grades.data.subarray(0, n);
      lines = this.lines.data.subarray(0, n);
    } else {
      const fill = offsets.slice(0, nUsers);
      items = new Int32Array(n);
      grades = new Float64Array(n);
      lines = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const at = fill[u[i]]++;
        items[at] = this.items.data[i];
        grades[at] = this.grades.data[i];
        lines[at] = this.lines.data[i];
      }
    }
    // Facts keep file order within a user, so "first" is the first in the file.
    const dup = new LineTally();
    const relOffsets = firstOfEachItem(items, offsets, nUsers, nItems, { grades, lines, repeats: dup });
    const w = relOffsets[nUsers];
    // Without repeated pairs the arrays are already exact: no second copy beside them (peak memory).
    const relItems = w === n ? items : items.slice(0, w);
    const relGrades = w === n ? grades : grades.slice(0, w);
    let binary = true;
    for (let i = 0; i < w; i++) if (relGrades[i] !== 1) binary = false;
    const inGroundTruth = new Uint8Array(nUsers);
    const relLine = new Int32Array(nUsers);
    for (let user = 0; user < nUsers; user++) {
      const line = this.firstLine.get(user);
      if (line === 0) continue;
      inGroundTruth[user] = 1;
      relLine[user] = line;
    }
    if (dup.count > 0) {
      warnings.add({
        code: 'duplicate-relevance',
        message: `${file}: ${dup.count} (user, item) pair(s) given more than once in the ground truth; the first grade is used.`,
        file,
        line: dup.lines[0],
        count: dup.count,
        lines: dup.lines,
      });
    }
    if (this.negative.count > 0) {
      warnings.add({
        code: 'negative-relevance',
        message: `${file}: ${this.negative.count} negative relevance grade(s); they count as not relevant (as trec_eval does).`,
        file,
        line: this.negative.lines[0],
        count: this.negative.count,
        lines: this.negative.lines,
      });
    }
    return { relOffsets, relItems, relGrades, binary, inGroundTruth, relLine };
  }
}
