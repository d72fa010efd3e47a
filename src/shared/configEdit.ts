/**
 * Edits top-level keys of an `eval-lens.json` as text: a key's value is replaced where it stands,
 * a removed key takes its comma with it, a new key is appended in the file's own indentation and
 * line ending. Everything else — other keys, their order, compact arrays, spacing — stays as the
 * person wrote it. Used by the config writer of the extension ("Create Evaluation Config" and the
 * threshold explorer's "Use this operating point").
 */

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

interface Scanned {
  open: number;
  close: number;
  members: Member[];
}

/** Thrown when the text is not a JSON object; `message` says what was found. */
export class ConfigEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigEditError';
  }
}

const WS = /[ \t\r\n]/;

/** Positions of the top-level members of a JSON object text (already known to be valid JSON). */
function scan(text: string): Scanned {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const skip = (): void => {
    while (i < text.length && WS.test(text[i]!)) i++;
  };
  const skipString = (): void => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++; // closing quote
  };
  const skipValue = (): void => {
    const c = text[i];
    if (c === '"') return skipString();
    if (c === '{' || c === '[') {
      let depth = 0;
      while (i < text.length) {
        const d = text[i];
        if (d === '"') {
          skipString();
          continue;
        }
        if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') depth--;
        i++;
        if (depth === 0) return;
      }
      return;
    }
    while (i < text.length && !WS.test(text[i]!) && text[i] !== ',' && text[i] !== '}' && text[i] !== ']') i++;
  };
  skip();
  const open = i;
  i++;
  const members: Member[] = [];
  for (;;) {
    skip();
    if (text[i] === '}') break;
    if (text[i] === ',') {
      i++;
      continue;
    }
    const keyStart = i;
    skipString();
    const key = JSON.parse(text.slice(keyStart, i)) as string;
    skip();
    i++; // colon
    skip();
    const valueStart = i;
    skipValue();
    members.push({ key, keyStart, valueStart, valueEnd: i });
  }
  return { open, close: i, members };
}

function parseObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ConfigEditError(`${what} is not valid JSON (${(err as Error).message}); fix it first.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigEditError(
      `${what} must hold one JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}.`,
    );
  return value as Record<string, unknown>;
}

function lineEnding(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function indentOf(text: string, s: Scanned): string {
  const first = s.members[0];
  if (!first) return '  ';
  const lineStart = text.lastIndexOf('\n', first.keyStart - 1) + 1;
  const lead = text.slice(lineStart, first.keyStart);
  // a one-line object ({"a": 1}): no indentation to copy
  return /^[ \t]*$/.test(lead) && lineStart > s.open ? lead : '';
}

function removeKey(text: string, key: string): string {
  const s = scan(text);
  const k = s.members.findIndex((m) => m.key === key);
  if (k < 0) return text;
  const m = s.members[k]!;
  const next = s.members[k + 1];
  const prev = s.members[k - 1];
  if (next) return text.slice(0, m.keyStart) + text.slice(next.keyStart);
  if (prev) return text.slice(0, prev.valueEnd) + text.slice(m.valueEnd);
  return text.slice(0, s.open + 1) + text.slice(s.close);
}

function setKey(text: string, key: string, value: unknown): string {
  const s = scan(text);
  const json = JSON.stringify(value);
  const m = s.members.find((x) => x.key === key);
  if (m) return text.slice(0, m.valueStart) + json + text.slice(m.valueEnd);
  const nl = lineEnding(text);
  const member = `${JSON.stringify(key)}: ${json}`;
  const last = s.members[s.members.length - 1];
  if (!last) return `${text.slice(0, s.open + 1)}${nl}  ${member}${nl}${text.slice(s.close)}`;
  const indent = indentOf(text, s);
  return `${text.slice(0, last.valueEnd)},${indent ? `${nl}${indent}` : ' '}${member}${text.slice(last.valueEnd)}`;
}

/**
 * `text` (an `eval-lens.json`, or null for a new one) with the keys of `set` given those values
 * and the keys in `remove` deleted; the result is checked to parse to exactly that object.
 *
 * @example editConfigText('{\n  "task": "classification",\n  "targetCoverage": 0.8\n}\n',
 *   { acceptThreshold: 0.9 }, ['targetCoverage'])
 *   → '{\n  "task": "classification",\n  "acceptThreshold": 0.9\n}\n'
 */
export function editConfigText(
  text: string | null,
  set: Record<string, unknown>,
  remove: readonly string[] = [],
  what = 'eval-lens.json',
): string {
  let out = text ?? '{}\n';
  const before = parseObject(out, what);
  for (const k of remove) if (!(k in set)) out = removeKey(out, k);
  for (const [k, v] of Object.entries(set)) out = setKey(out, k, v);
  const expected: Record<string, unknown> = { ...before };
  for (const k of remove) delete expected[k];
  Object.assign(expected, set);
  const after = parseObject(out, what);
  if (JSON.stringify(sortKeys(after)) !== JSON.stringify(sortKeys(expected)))
    throw new ConfigEditError(`Cannot edit ${what} in place (its layout was not understood); nothing was written.`);
  return out;
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}
