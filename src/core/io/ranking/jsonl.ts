/**
 * JSONL ranking runs: one user a line,
 * `{"user": "u1", "items": ["i3", "i9", …], "relevant": ["i9"] | {"i9": 2, "i4": 1}, "scores": [..]}`.
 *
 * - `items` is the ranked list, best first; the list order is the ranking. `scores`, when present,
 *   must have one finite number per item; a list whose scores increase somewhere gets a warning
 *   (the order of `items` still wins: the file says what was shown).
 * - `relevant` is a list (grade 1 each) or an item → grade map (grades ≥ 0; 0 = not relevant;
 *   negative = not relevant, with a warning). Either every line has it or none does (then the
 *   ground truth comes from the `relevant` file of the config).
 * - Ids may be strings or integers (an integer id 7 and a string id "7" are the same item).
 * - Key aliases: user (`user_id`, `userId`, `uid`, `qid`, `query_id`), items (`recommendations`,
 *   `recs`, `ranked`, `ranking`, `predictions`), relevant (`ground_truth`, `groundTruth`, `gt`,
 *   `positives`, `targets`, `test_items`), scores (`score`); `columns.user`, `columns.item`,
 *   `columns.rel`, `columns.score` name them explicitly.
 *
 * Speed: lines are scanned as bytes by a strict parser for exactly this shape, interning ids from
 * their bytes ({@link ByteInterner}); any line it does not fully understand (escapes, nested
 * values, literals, odd numbers) is handed to `JSON.parse` and read by the general path, which
 * also produces every error message. Both paths give the same result for the same line.
 */
import { bigIntegersAsText } from '../table';
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { fail, type Progress, type Warnings } from '../../diagnostics';
import type { ColumnsConfig } from '../../config/types';
import type { IdIndex } from '../../data/rankingData';
import { byteInternerOf, type ByteInterner } from './byteInterner';
import { FloatVec, IntVec, LineTally, ListBuilder, RelBuilder } from './builders';
import { forEachLineBytes } from './lines';
import { readParquet } from '../parquet';
import type { Cell } from '../../data/textColumn';

export interface RankingReadContext {
  users: IdIndex;
  items: IdIndex;
  warnings: Warnings;
  progress?: Progress;
  columns?: ColumnsConfig;
}

export interface RunRead {
  lists: ListBuilder;
  /** Inline ground truth (JSONL `relevant`), or null. */
  rel: RelBuilder | null;
  rows: number;
  columns: Record<string, string>;
  /** Size and SHA-256 of the run file, computed from the bytes as they were parsed (one read). */
  hashed?: { size: number; sha256: string };
}

type Role = 'user' | 'items' | 'relevant' | 'scores';

const ALIASES: Record<Role, string[]> = {
  user: ['user', 'user_id', 'userid', 'uid', 'qid', 'query_id'],
  items: ['items', 'recommendations', 'recs', 'ranked', 'ranking', 'predictions'],
  relevant: ['relevant', 'ground_truth', 'groundtruth', 'gt', 'positives', 'targets', 'test_items'],
  scores: ['scores', 'score'],
};

function roleTable(columns: ColumnsConfig | undefined): Map<string, Role> {
  const m = new Map<string, Role>();
  const explicit: Partial<Record<Role, string | undefined>> = {
    user: columns?.user,
    items: columns?.item,
    relevant: columns?.rel,
    scores: columns?.score,
  };
  for (const role of Object.keys(ALIASES) as Role[]) {
    const name = explicit[role];
    if (name) m.set(name, role);
    else for (const a of ALIASES[role]) if (!m.has(a)) m.set(a, role);
  }
  return m;
}

/** What one line holds, filled by either path. */
class LineScratch {
  user: string | null = null;
  /** The user's integer when the fast path interned it from its bytes (then `user` stays null). */
  userIndex = -1;
  hasItems = false;
  hasRel = false;
  hasScores = false;
  readonly items = new IntVec(256);
  readonly relItems = new IntVec(64);
  readonly relGrades = new FloatVec(64);
  readonly scores = new FloatVec(256);
  readonly keys: Partial<Record<Role, string>> = {};
  reset(): void {
    this.user = null;
    this.userIndex = -1;
    this.hasItems = this.hasRel = this.hasScores = false;
    this.items.length = this.relItems.length = this.relGrades.length = this.scores.length = 0;
  }
}

/**
 * What every list-form reader does with one parsed row (a JSONL line or a Parquet row): the checks
 * (user and items present, `relevant` on every row or none, one score per item) and the lists.
 */
class ListRows {
  readonly lists: ListBuilder;
  readonly rel = new RelBuilder();
  relMode: boolean | null = null;
  rows = 0;
  readonly unsorted = new LineTally();
  readonly usedKeys: Partial<Record<Role, string>> = {};

  constructor(
    private readonly label: string,
    private readonly ctx: RankingReadContext,
    slotsHint: number,
    /** The hint of the missing-items error: how to write one (user, item) row a line instead. */
    private readonly longFormHint: string,
  ) {
    this.lists = new ListBuilder(slotsHint);
  }

  accept(s: LineScratch, lineNo: number): void {
    const { label, ctx, lists, rel } = this;
    this.rows++;
    if (this.rows === 1) for (const r of Object.keys(s.keys) as Role[]) this.usedKeys[r] = s.keys[r];
    if (s.user === null && s.userIndex < 0)
      fail(
        'missing-key',
        { file: label, line: lineNo },
        `expected a "user" key (or ${ALIASES.user.slice(1).join(', ')}), got none.`,
      );
    if (!s.hasItems)
      fail(
        'missing-key',
        { file: label, line: lineNo },
        `expected an "items" key with the ranked list (or ${ALIASES.items.slice(1).join(', ')}), got none. ${this.longFormHint}`,
      );
    if (this.relMode === null) this.relMode = s.hasRel;
    else if (this.relMode !== s.hasRel)
      fail(
        'missing-key',
        { file: label, line: lineNo },
        this.relMode
          ? 'expected a "relevant" key as on the first line, got none.'
          : 'got a "relevant" key, but the first line had none (give it on every line or on none).',
      );
    if (s.hasScores) {
      if (s.scores.length !== s.items.length)
        fail(
          'bad-value',
          { file: label, line: lineNo, column: 'scores' },
          `expected ${s.items.length} scores (one per item), got ${s.scores.length}.`,
        );
      const sc = s.scores.data;
      for (let p = 1; p < s.scores.length; p++)
        if (sc[p] > sc[p - 1]) {
          this.unsorted.add(lineNo);
          break;
        }
    }
    const user = s.userIndex >= 0 ? s.userIndex : ctx.users.intern(s.user!);
    if (lists.begin(user, lineNo)) {
      lists.itemsFrom(s.items.data, s.items.length);
      lists.end();
      if (s.hasRel) {
        rel.touch(user, lineNo);
        for (let p = 0; p < s.relItems.length; p++) rel.add(user, s.relItems.data[p], s.relGrades.data[p], lineNo);
      }
    }
  }

  finish(emptyWhat: string, hashed?: RunRead['hashed']): RunRead {
    const { label, ctx, unsorted, usedKeys } = this;
    if (this.rows === 0) fail('empty-file', { file: label }, emptyWhat);
    if (unsorted.count > 0) {
      ctx.warnings.add({
        code: 'scores-not-sorted',
        message: `${label}: in ${unsorted.count} list(s) the scores increase somewhere along "items"; the order of "items" is used as the ranking.`,
        file: label,
        line: unsorted.lines[0],
        count: unsorted.count,
        lines: unsorted.lines,
      });
    }
    const columns: Record<string, string> = {};
    if (usedKeys.user) columns.user = usedKeys.user;
    if (usedKeys.items) columns.items = usedKeys.items;
    if (usedKeys.relevant) columns.relevant = usedKeys.relevant;
    if (usedKeys.scores) columns.scores = usedKeys.scores;
    return { lists: this.lists, rel: this.relMode ? this.rel : null, rows: this.rows, columns, hashed };
  }
}

function roleLookup(columns: ColumnsConfig | undefined): (key: string) => Role | undefined {
  const roles = roleTable(columns);
  const lowerRoles = new Map<string, Role>();
  for (const [k, r] of roles) lowerRoles.set(k.toLowerCase(), r);
  return (key: string): Role | undefined => roles.get(key) ?? lowerRoles.get(key.toLowerCase());
}

/**
 * `hash`: false when another thread hashes the file (then the result has no `hashed`).
 * `usersOnce`: true when no later file is read by bytes on this thread with the run's users (the
 * train file read ahead on its own thread, no ground-truth file): the users, one a line, are then
 * numbered without the byte table, which would be filled and never read (about 6 MB for 100,000
 * users).
 */
export async function readJsonlRun(
  path: string,
  label: string,
  ctx: RankingReadContext,
  hash = true,
  usersOnce = false,
): Promise<RunRead> {
  const roleOf = roleLookup(ctx.columns);
  const itemInterner = byteInternerOf(ctx.items);
  // A JSONL slot takes at least 8 bytes in practice ("i12345", plus the comma); the hint only
  // sizes the first chunk, so a file of shorter ids just grows in more chunks.
  const out = new ListRows(
    label,
    ctx,
    (await stat(path)
      .then((s) => s.size)
      .catch(() => 0)) / 8,
    'A JSONL run holds one user a line; for one (user, item, rank|score) row a line, write a CSV file.',
  );
  const s = new LineScratch();
  const reading: RowReading = { file: label, roleOf, items: ctx.items, s };
  const fast = new FastLineParser(itemInterner, byteInternerOf(ctx.users), roleOf, s, usersOnce);
  const hasher = hash ? createHash('sha256') : null;
  let size = 0;

  await forEachLineBytes(
    path,
    (buf, start, end, lineNo) => {
      let i = start;
      while (i < end && (buf[i] === 32 || buf[i] === 9)) i++;
      if (i === end) return;
      s.reset();
      if (!fast.parse(buf, i, end)) {
        s.reset();
        slowLine(buf.toString('utf8', start, end), lineNo, reading);
      }
      out.accept(s, lineNo);
    },
    {
      progress: ctx.progress,
      stage: 'reading run',
      label,
      onBytes: hasher
        ? (b) => {
            hasher.update(b);
            size += b.length;
          }
        : undefined,
    },
  );
  return out.finish(
    'expected at least one JSON line with a user and a ranked list, got an empty file.',
    hasher ? { size, sha256: hasher.digest('hex') } : undefined,
  );
}

/**
 * A ground-truth file (`relevant` of the config) in JSONL: one user a line with its relevant items,
 * in the run's shape without the list — `{"user": "u1", "relevant": ["i9", "i4"]}` (grade 1 each)
 * or `{"user": "u1", "relevant": {"i9": 2, "i4": 1}}` (grades; 0 = not relevant, negative = not
 * relevant with a warning) — with the run's key aliases and `columns.user`/`columns.rel`. Other
 * keys (a ranked list, scores) are not read. A user given on several lines gets the items of all.
 * The same facts as the CSV `user,item[,rel]` rows of the same ground truth.
 */
export async function readJsonlGroundTruth(
  path: string,
  label: string,
  ctx: RankingReadContext,
): Promise<{ rel: RelBuilder; rows: number }> {
  const roles = roleLookup(ctx.columns);
  const roleOf = (key: string): Role | undefined => {
    const r = roles(key);
    return r === 'user' || r === 'relevant' ? r : undefined;
  };
  const rel = new RelBuilder();
  const s = new LineScratch();
  const reading: RowReading = { file: label, roleOf, items: ctx.items, s };
  let rows = 0;
  await forEachLineBytes(
    path,
    (buf, start, end, lineNo) => {
      const text = buf.toString('utf8', start, end);
      if (text.trim() === '') return;
      s.reset();
      slowLine(text, lineNo, reading);
      if (s.user === null)
        fail(
          'missing-key',
          { file: label, line: lineNo },
          `expected a "user" key (or ${ALIASES.user.slice(1).join(', ')}) on every line of the ground truth, got none.`,
        );
      if (!s.hasRel)
        fail(
          'missing-key',
          { file: label, line: lineNo },
          `expected a "relevant" key (or ${ALIASES.relevant.slice(1).join(', ')}) with the user's relevant items, as a list or an item → grade object, got none.`,
        );
      rows++;
      const user = ctx.users.intern(s.user);
      rel.touch(user, lineNo);
      for (let p = 0; p < s.relItems.length; p++) rel.add(user, s.relItems.data[p], s.relGrades.data[p], lineNo);
    },
    { progress: ctx.progress, stage: 'reading ground truth', label },
  );
  return { rel, rows };
}

/**
 * The name of the ranked-list column when a Parquet run holds one user a row (`user`, `items` as a
 * list column, optionally `relevant` and `scores` lists), else null (a long-format run).
 */
export function parquetListColumn(
  names: string[],
  isList: (j: number) => boolean,
  columns: ColumnsConfig | undefined,
): string | null {
  const roleOf = roleLookup(columns);
  const j = names.findIndex((n, k) => roleOf(n) === 'items' && isList(k));
  return j < 0 ? null : names[j]!;
}

/**
 * A Parquet run with one user a row: each row's cells (lists as arrays) are read by the rules of a
 * JSONL line, row group by row group; rows are located by data row.
 */
export async function readParquetListRun(path: string, label: string, ctx: RankingReadContext): Promise<RunRead> {
  const roleOf = roleLookup(ctx.columns);
  const out = new ListRows(
    label,
    ctx,
    1 << 16,
    'A Parquet run holds either one user a row with an "items" list column, or one (user, item, rank|score) row each.',
  );
  const s = new LineScratch();
  const reading: RowReading = { file: label, roleOf, items: ctx.items, s };
  let names: string[] = [];
  await readParquet(
    path,
    {
      columns(n: string[]): void {
        names = n;
      },
      row(cells: Cell[], line: number): void {
        const obj: Record<string, unknown> = {};
        for (let j = 0; j < names.length; j++) if (cells[j] !== null) obj[names[j]!] = cells[j];
        s.reset();
        readObject(obj, line, reading);
        out.accept(s, line);
      },
    },
    ctx.progress,
  );
  return out.finish('expected at least one row with a user and a ranked list, got none.');
}

/**
 * What each row of one file is read with on the general path, made once per file: the file's name
 * in messages, its key → role lookup, the item ids and the scratch the row is read into.
 */
interface RowReading {
  file: string;
  roleOf: (k: string) => Role | undefined;
  items: IdIndex;
  s: LineScratch;
}

/** The general path: JSON.parse, with an error message for every way a line can be wrong. */
function slowLine(text: string, lineNo: number, reading: RowReading): void {
  const { file } = reading;
  let obj: unknown;
  try {
    // Integers of 16+ digits as text: ids beyond 2^53 keep their digits (as on the fast path).
    obj = JSON.parse(/\d{16}/.test(text) ? bigIntegersAsText(text) : text);
  } catch (e) {
    fail(
      'bad-json',
      { file, line: lineNo },
      `expected one JSON object per line, got invalid JSON (${(e as Error).message}).`,
    );
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
    fail(
      'bad-json',
      { file, line: lineNo },
      `expected a JSON object, got ${Array.isArray(obj) ? 'an array' : JSON.stringify(obj)?.slice(0, 40)}.`,
    );
  readObject(obj as Record<string, unknown>, lineNo, reading);
}

/** One row as an object (a parsed JSONL line or a Parquet row): every rule and error message of a line. */
function readObject(obj: Record<string, unknown>, lineNo: number, reading: RowReading): void {
  const { file, roleOf, items, s } = reading;
  for (const [key, v] of Object.entries(obj)) {
    const role = roleOf(key);
    if (!role) continue;
    s.keys[role] = key;
    const loc = { file, line: lineNo, column: key };
    if (role === 'user') {
      if (typeof v === 'string') s.user = v;
      else if (typeof v === 'number' && Number.isFinite(v)) s.user = String(v);
      else fail('bad-value', loc, `expected the user id as a string or number, got ${JSON.stringify(v)}.`);
    } else if (role === 'items') {
      if (!Array.isArray(v))
        fail('bad-value', loc, `expected the ranked list as an array of item ids, got ${describe(v)}.`);
      s.hasItems = true;
      s.items.length = 0;
      for (let p = 0; p < v.length; p++) s.items.push(items.intern(idOf(v[p], loc, `item ${p + 1}`)));
    } else if (role === 'relevant') {
      s.hasRel = true;
      s.relItems.length = s.relGrades.length = 0;
      if (Array.isArray(v)) {
        for (let p = 0; p < v.length; p++) {
          s.relItems.push(items.intern(idOf(v[p], loc, `relevant item ${p + 1}`)));
          s.relGrades.push(1);
        }
      } else if (v !== null && typeof v === 'object') {
        for (const [id, g] of Object.entries(v as Record<string, unknown>)) {
          if (typeof g !== 'number' || !Number.isFinite(g))
            fail('bad-value', loc, `expected a finite number as the grade of item "${id}", got ${JSON.stringify(g)}.`);
          s.relItems.push(items.intern(id));
          s.relGrades.push(g);
        }
      } else
        fail('bad-value', loc, `expected the relevant items as a list or an item → grade object, got ${describe(v)}.`);
    } else {
      if (!Array.isArray(v)) fail('bad-value', loc, `expected an array of numbers, got ${describe(v)}.`);
      s.hasScores = true;
      s.scores.length = 0;
      for (let p = 0; p < v.length; p++) {
        const x = v[p];
        if (typeof x !== 'number' || !Number.isFinite(x))
          fail('bad-value', loc, `expected a finite number as score ${p + 1}, got ${JSON.stringify(x)}.`);
        s.scores.push(x);
      }
    }
  }
}

function idOf(v: unknown, loc: { file: string; line: number; column: string }, what: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return fail('bad-value', loc, `expected ${what} to be a string or number id, got ${JSON.stringify(v)}.`);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return JSON.stringify(v);
}

// Local copies: an imported binding is read through a getter in the CommonJS build, too slow for
// the per-byte loop. They equal ByteInterner's constants (were they to differ, ids would still get
// the right integers: a miss falls back to the shared IdIndex).
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const QUOTE = 34;
const BACKSLASH = 92;
/** 1 for the bytes that end a plain string's content: the quote, a backslash, control bytes. */
const STOP = new Uint8Array(256);
for (let c = 0; c < 32; c++) STOP[c] = 1;
STOP[QUOTE] = STOP[BACKSLASH] = 1;

/**
 * One bit (the high bit of its byte) for each byte of the 32-bit little-endian word `x` that
 * {@link STOP} marks: a control byte (below 0x20), a quote or a backslash. The lowest set bit is
 * exact: these word-at-a-time tests (S. E. Anderson, "Bit Twiddling Hacks", Stanford University,
 * https://graphics.stanford.edu/~seander/bithacks.html, "Determine if a word has a byte less
 * than n" and "… has a zero byte") can mark a byte above a true one by the borrow it leaves,
 * never one below.
 */
function stopBits(x: number): number {
  const q = x ^ 0x22222222; // a quote becomes a zero byte
  const s = x ^ 0x5c5c5c5c; // a backslash becomes a zero byte
  return (
    ((x - 0x20202020) & ~x & 0x80808080) | ((q - 0x01010101) & ~q & 0x80808080) | ((s - 0x01010101) & ~s & 0x80808080)
  );
}

/** The index (0–3) of the byte of the lowest bit set in `bits` (not 0). */
function lowestByte(bits: number): number {
  return (31 - Math.clz32(bits & -bits)) >> 3;
}

/**
 * A strict byte-level parser for the common line shape. `parse` returns false (and the caller
 * falls back to JSON.parse) on anything beyond: an object whose keys are plain strings, whose
 * known values are a plain string or integer (user), arrays of plain strings/integers (items,
 * relevant), an object of plain-string keys to numbers (relevant), arrays of numbers (scores);
 * unknown keys may hold any JSON value, skipped without interpretation only if simple.
 */
class FastLineParser {
  private buf!: Buffer;
  /** A view of `buf` for reading an id's bytes four at a time. */
  private view!: DataView;
  private i = 0;
  private end = 0;
  private readonly keyBytes: Uint8Array[] = [];
  private readonly keyNames: string[] = [];
  private readonly keyRoles: (Role | undefined)[] = [];

  constructor(
    private readonly items: ByteInterner,
    private readonly users: ByteInterner,
    private readonly roleOf: (k: string) => Role | undefined,
    private readonly s: LineScratch,
    private readonly usersOnce: boolean,
  ) {}

  parse(buf: Buffer, start: number, end: number): boolean {
    if (buf !== this.buf) {
      this.buf = buf;
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    this.i = start;
    this.end = end;
    if (buf[this.i++] !== 123) return false; // {
    this.ws();
    if (buf[this.i] === 125) return false; // {} → general path says what is missing
    for (;;) {
      this.ws();
      const ks = this.plainString();
      if (ks < 0) return false;
      const known = this.knownKey(buf, ks, this.i - 1);
      if (known < 0) return false;
      const key = this.keyNames[known];
      const role = this.keyRoles[known];
      this.ws();
      if (buf[this.i++] !== 58) return false; // :
      this.ws();
      let ok: boolean;
      switch (role) {
        case 'user':
          ok = this.userValue();
          break;
        case 'items':
          ok = this.idArray(this.s.items);
          this.s.hasItems = true;
          break;
        case 'relevant':
          ok = this.relValue();
          this.s.hasRel = true;
          break;
        case 'scores':
          ok = this.numberArray();
          this.s.hasScores = true;
          break;
        default:
          ok = this.skipSimple();
      }
      if (!ok) return false;
      if (role) this.s.keys[role] = key;
      this.ws();
      const c = buf[this.i++];
      if (c === 44) continue; // ,
      if (c !== 125) return false; // }
      this.ws();
      return this.i === this.end;
    }
  }

  /**
   * The index in the key cache of the key whose bytes are `buf[ks, ke)`, adding it when new; -1
   * for a key the fast path leaves to JSON.parse (a known role spelled with non-ASCII bytes). The
   * same few keys start every line: no string, map lookup or check per key and line.
   */
  private knownKey(buf: Buffer, ks: number, ke: number): number {
    const len = ke - ks;
    for (let k = 0; k < this.keyBytes.length; k++) {
      const kb = this.keyBytes[k];
      if (kb.length !== len) continue;
      let i = 0;
      while (i < len && kb[i] === buf[ks + i]) i++;
      if (i === len) return k;
    }
    const key = buf.toString('latin1', ks, ke);
    const role = this.roleOf(key);
    if (role !== undefined && /[^\x20-\x7e]/.test(key)) return -1;
    if (this.keyBytes.length >= 32) {
      // Many distinct (unknown) keys: the last slot takes turns.
      this.keyBytes.length = this.keyNames.length = this.keyRoles.length = 31;
    }
    this.keyBytes.push(Uint8Array.from(buf.subarray(ks, ke)));
    this.keyNames.push(key);
    this.keyRoles.push(role);
    return this.keyBytes.length - 1;
  }

  private ws(): void {
    const b = this.buf;
    while (this.i < this.end) {
      const c = b[this.i];
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  /** At a quote: scans a string without escapes or control bytes; returns its content start, or -1. */
  private plainString(): number {
    const b = this.buf;
    if (b[this.i] !== QUOTE) return -1;
    const start = ++this.i;
    const end = this.end;
    let i = start;
    while (i < end) {
      const c = b[i];
      if (c === QUOTE) {
        this.i = i + 1;
        return start;
      }
      if (c === BACKSLASH || c < 32) return -1;
      i++;
    }
    return -1;
  }

  /** A plain integer token (JSON grammar), returns its end or -1. */
  private integerToken(): number {
    const b = this.buf;
    let i = this.i;
    if (b[i] === 45) i++; // -
    const d0 = i;
    while (i < this.end && b[i] >= 48 && b[i] <= 57) i++;
    if (i === d0 || (b[d0] === 48 && i - d0 > 1)) return -1;
    const c = b[i];
    if (c === 46 || c === 101 || c === 69) return -1; // . e E: not a plain integer
    if (i - d0 > 15) return -1; // beyond exact doubles: String(n) would differ from the bytes
    return i;
  }

  private userValue(): boolean {
    const b = this.buf;
    if (b[this.i] === QUOTE) {
      const st = this.plainString();
      if (st < 0) return false;
      const end = this.i - 1;
      this.s.userIndex = this.usersOnce ? this.users.internOnce(b, st, end) : this.users.intern(b, st, end);
      this.s.user = null; // a repeated key: the last one wins, as in JSON.parse
      return true;
    }
    const st = this.i;
    const e = this.integerToken();
    if (e < 0) return false;
    const t = b.toString('latin1', st, e);
    // A long integer id keeps its digits; a short one is the number's canonical text ("-0" → "0").
    this.s.user = e - st >= 16 ? t : String(Number(t));
    this.s.userIndex = -1;
    this.i = e;
    return true;
  }

  private id(): number {
    const b = this.buf;
    if (b[this.i] === QUOTE) {
      const st = this.plainString();
      if (st < 0) return -1;
      return this.items.intern(b, st, this.i - 1);
    }
    const st = this.i;
    const e = this.integerToken();
    if (e < 0) return -1;
    // "-0" is the number 0, whose id is "0": leave it to the general path.
    if (b[st] === 45 && e - st === 2 && b[st + 1] === 48) return -1;
    this.i = e;
    return this.items.intern(b, st, e);
  }

  private idArray(out: IntVec): boolean {
    const b = this.buf;
    const end = this.end;
    const interner = this.items;
    const view = this.view;
    // Where an id's 8 bytes can be read as two words without passing the buffer's end.
    const wordsEnd = b.length - 8;
    out.length = 0;
    if (b[this.i++] !== 91) return false; // [
    this.ws();
    if (b[this.i] === 93) {
      this.i++;
      return true;
    }
    let i = this.i;
    for (;;) {
      while (i < end && (b[i] === 32 || b[i] === 9)) i++;
      let read = false;
      if (i < end && b[i] === QUOTE && i < wordsEnd) {
        // An id of at most 7 bytes (the common case) read as two words: the closing quote found by
        // bit tests on the words, the bytes before it kept as the interner's packed key. The loop
        // over the bytes below costs a test per byte and a mispredicted exit per id: reading a
        // 96 MB run of 10 million ids took about 0.1 s more CPU time with it alone (of 0.65 s).
        // Longer ids, and ids that end at a byte other than a quote, go on below.
        const st = i + 1;
        let w0 = view.getInt32(st, true);
        let w1 = 0;
        let len = 8;
        const bits0 = stopBits(w0);
        if (bits0 !== 0) {
          len = lowestByte(bits0);
          w0 &= ~(-1 << (len << 3));
        } else {
          w1 = view.getInt32(st + 4, true);
          const bits1 = stopBits(w1);
          if (bits1 !== 0) {
            const k = lowestByte(bits1);
            len = 4 + k;
            w1 &= ~(-1 << (k << 3));
          }
        }
        if (len < 8 && st + len < end && b[st + len] === QUOTE) {
          out.push(interner.internShort(b, st, len, w0, w1));
          i = st + len + 1;
          read = true;
        }
      }
      if (read) {
        // the id is read: on to the separator
      } else if (i < end && b[i] === QUOTE) {
        // One pass finds the closing quote and packs the first 8 bytes (the whole id, usually)
        // into two words for the interner; a longer id is hashed as it is scanned on.
        const st = ++i;
        let w0 = 0;
        let w1 = 0;
        let c = 0;
        let long = false;
        for (; i < end; i++) {
          c = b[i];
          if (STOP[c] !== 0) break;
          const n = i - st;
          if (n < 4) w0 |= c << (n << 3);
          else if (n < 8) w1 |= c << ((n - 4) << 3);
          else {
            long = true;
            break;
          }
        }
        if (!long) {
          if (i >= end || c !== QUOTE) return false;
          out.push(interner.internShort(b, st, i - st, w0, w1));
        } else {
          let h = FNV_OFFSET;
          let q = st;
          for (; q < i; q++) h = Math.imul(h ^ b[q], FNV_PRIME);
          for (; q < end; q++) {
            c = b[q];
            if (STOP[c] !== 0) break;
            h = Math.imul(h ^ c, FNV_PRIME);
          }
          if (q >= end || c !== QUOTE) return false;
          i = q;
          out.push(interner.internLong(b, st, i, h));
        }
        i++;
      } else {
        this.i = i;
        const k = this.id();
        if (k < 0) return false;
        out.push(k);
        i = this.i;
      }
      while (i < end && (b[i] === 32 || b[i] === 9)) i++;
      if (i >= end) return false;
      const c = b[i++];
      if (c === 44) continue;
      this.i = i;
      return c === 93;
    }
  }

  private relValue(): boolean {
    const b = this.buf;
    const s = this.s;
    s.relItems.length = s.relGrades.length = 0;
    if (b[this.i] === 91) {
      if (!this.idArray(s.relItems)) return false;
      for (let p = 0; p < s.relItems.length; p++) s.relGrades.push(1);
      return true;
    }
    const open = this.openList(123, 125);
    if (open <= 0) return open === 0;
    for (;;) {
      this.ws();
      const st = this.plainString();
      if (st < 0) return false;
      const k = this.items.intern(b, st, this.i - 1);
      this.ws();
      if (b[this.i++] !== 58) return false;
      this.ws();
      const g = this.number();
      if (Number.isNaN(g)) return false;
      s.relItems.push(k);
      s.relGrades.push(g);
      const next = this.nextInList(125);
      if (next <= 0) return next === 0;
    }
  }

  /** A JSON number token; NaN when the bytes are not one (the general path will say why). */
  private number(): number {
    const b = this.buf;
    const st = this.i;
    let i = st;
    if (b[i] === 45) i++;
    const d0 = i;
    while (i < this.end && b[i] >= 48 && b[i] <= 57) i++;
    if (i === d0 || (b[d0] === 48 && i - d0 > 1)) return NaN;
    if (b[i] === 46) {
      const f0 = ++i;
      while (i < this.end && b[i] >= 48 && b[i] <= 57) i++;
      if (i === f0) return NaN;
    }
    if (b[i] === 101 || b[i] === 69) {
      i++;
      if (b[i] === 43 || b[i] === 45) i++;
      const e0 = i;
      while (i < this.end && b[i] >= 48 && b[i] <= 57) i++;
      if (i === e0) return NaN;
    }
    this.i = i;
    const v = Number(b.toString('latin1', st, i));
    return Number.isFinite(v) ? v : NaN;
  }

  private numberArray(): boolean {
    const out = this.s.scores;
    out.length = 0;
    const open = this.openList(91, 93);
    if (open <= 0) return open === 0;
    for (;;) {
      this.ws();
      const v = this.number();
      if (Number.isNaN(v)) return false;
      out.push(v);
      const next = this.nextInList(93);
      if (next <= 0) return next === 0;
    }
  }

  /** At an `open` byte: -1 when it is not one; 0 when the list closes at once; 1 when an element follows. */
  private openList(open: number, close: number): number {
    const b = this.buf;
    if (b[this.i++] !== open) return -1;
    this.ws();
    if (b[this.i] === close) {
      this.i++;
      return 0;
    }
    return 1;
  }

  /** After an element: 1 when a comma (another element) follows, 0 when `close` ends the list, -1 otherwise. */
  private nextInList(close: number): number {
    this.ws();
    const c = this.buf[this.i++];
    return c === 44 ? 1 : c === close ? 0 : -1;
  }

  /** Skips a plain string or number value of an unknown key; anything else → general path. */
  private skipSimple(): boolean {
    if (this.buf[this.i] === QUOTE) return this.plainString() >= 0;
    return !Number.isNaN(this.number());
  }
}
