/**
 * A small JSON parser that remembers where every value sits, so that a config error can name the
 * 1-based line (and column) of the offending key. `JSON.parse` gives neither key positions nor,
 * on Node 20, a line/column for syntax errors.
 *
 * Strict JSON (RFC 8259): no comments, no trailing commas, no single quotes. Duplicate keys are
 * reported (JSON.parse would silently keep the last one, which hides typos in a config).
 */

import { MAX_JSON_DEPTH } from './jsonDepth';

/** Position of a key and of its value; 1-based line and column. */
export interface JsonLocation {
  line: number;
  column: number;
  /** Where the key of this member starts (absent for array elements and the root). */
  keyLine?: number;
  keyColumn?: number;
}

export interface ParsedJson {
  value: unknown;
  /** JSON pointer (`''` for the root, `/bootstrap/n`, `/topK/0`) → location. */
  locations: Map<string, JsonLocation>;
}

/** A syntax error at a 1-based line and column. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** Escapes a key for a JSON pointer segment (RFC 6901). */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function parseJsonWithLocations(text: string): ParsedJson {
  return new Parser(text).parseDocument();
}

/** Line (1-based) of the member `pointer`'s key, else of its value, else undefined. */
export function lineOf(parsed: ParsedJson, pointer: string): number | undefined {
  const loc = parsed.locations.get(pointer);
  return loc ? (loc.keyLine ?? loc.line) : undefined;
}

class Parser {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  readonly locations = new Map<string, JsonLocation>();

  constructor(private readonly text: string) {
    // A UTF-8 byte order mark is tolerated (editors on Windows write one).
    if (text.charCodeAt(0) === 0xfeff) {
      this.pos = 1;
      this.lineStart = 1;
    }
  }

  parseDocument(): ParsedJson {
    this.skipSpace();
    if (this.pos >= this.text.length) throw this.error('the file holds no JSON value');
    const value = this.parseValue('');
    this.skipSpace();
    if (this.pos < this.text.length)
      throw this.error(`expected the end of the file after the JSON value, got ${this.describeHere()}`);
    return { value, locations: this.locations };
  }

  private column(): number {
    return this.pos - this.lineStart + 1;
  }

  private error(what: string): JsonSyntaxError {
    return new JsonSyntaxError(what, this.line, this.column());
  }

  private describeHere(): string {
    if (this.pos >= this.text.length) return 'the end of the file';
    const rest = this.text.slice(this.pos, this.pos + 12).split(/\r?\n/)[0] ?? '';
    return `\`${rest}\``;
  }

  private skipSpace(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.pos];
      if (c === '\n') {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else if (c === ' ' || c === '\t' || c === '\r') {
        this.pos++;
      } else if (c === '/' && (t[this.pos + 1] === '/' || t[this.pos + 1] === '*')) {
        throw this.error('comments are not allowed in JSON');
      } else {
        return;
      }
    }
  }

  private depth = 0;

  private parseValue(pointer: string, keyLoc?: { line: number; column: number }): unknown {
    const loc: JsonLocation = { line: this.line, column: this.column() };
    if (keyLoc) {
      loc.keyLine = keyLoc.line;
      loc.keyColumn = keyLoc.column;
    }
    this.locations.set(pointer, loc);
    const c = this.text[this.pos];
    if (c === '{' || c === '[') {
      // A bound instead of a stack overflow: no meaningful config or input nests this deep.
      if (++this.depth > MAX_JSON_DEPTH)
        throw this.error(`nested deeper than ${MAX_JSON_DEPTH} levels (expected at most ${MAX_JSON_DEPTH})`);
      const v = c === '{' ? this.parseObject(pointer) : this.parseArray(pointer);
      this.depth--;
      return v;
    }
    if (c === '"') return this.parseString();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.parseNumber();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    if (c === "'") throw this.error('strings must use double quotes (")');
    if (c === '}' || c === ']') throw this.error(`expected a value, got \`${c}\` (a trailing comma?)`);
    throw this.error(
      `expected a value (object, array, string, number, true, false or null), got ${this.describeHere()}`,
    );
  }

  private parseObject(pointer: string): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    const seen = new Map<string, number>();
    if (this.opensEmpty('}')) return obj;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') {
        if (this.text[this.pos] === '}') throw this.error('expected a key, got `}` (a trailing comma?)');
        throw this.error(`expected a key in double quotes, got ${this.describeHere()}`);
      }
      const keyLoc = { line: this.line, column: this.column() };
      const key = this.parseString();
      const first = seen.get(key);
      if (first !== undefined) {
        throw new JsonSyntaxError(`duplicate key \`${key}\` (first at line ${first})`, keyLoc.line, keyLoc.column);
      }
      seen.set(key, keyLoc.line);
      this.skipSpace();
      if (this.text[this.pos] !== ':')
        throw this.error(`expected \`:\` after the key \`${key}\`, got ${this.describeHere()}`);
      this.pos++;
      this.skipSpace();
      const value = this.parseValue(`${pointer}/${pointerSegment(key)}`, keyLoc);
      Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      if (this.listEnds('}', `after the value of \`${key}\``)) return obj;
    }
  }

  private parseArray(pointer: string): unknown[] {
    const arr: unknown[] = [];
    if (this.opensEmpty(']')) return arr;
    for (;;) {
      this.skipSpace();
      arr.push(this.parseValue(`${pointer}/${arr.length}`));
      if (this.listEnds(']', 'in the array')) return arr;
    }
  }

  /** Steps over the opening `{` or `[` and the spaces after it; true (and steps over `close`) when the object or array is empty. */
  private opensEmpty(close: '}' | ']'): boolean {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] !== close) return false;
    this.pos++;
    return true;
  }

  /**
   * After a member or element: steps over a `,` (false: another one follows) or the closing
   * `close` (true); anything else is an error saying what was expected `where`.
   */
  private listEnds(close: '}' | ']', where: string): boolean {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === ',' || c === close) {
      this.pos++;
      return c === close;
    }
    throw this.error(`expected \`,\` or \`${close}\` ${where}, got ${this.describeHere()}`);
  }

  private parseString(): string {
    const t = this.text;
    const start = this.pos;
    this.pos++; // opening quote
    let out = '';
    let chunk = this.pos;
    for (;;) {
      const c = t[this.pos];
      if (c === undefined || c === '\n') {
        this.pos = start;
        throw this.error('unterminated string');
      }
      if (c === '"') {
        out += t.slice(chunk, this.pos);
        this.pos++;
        return out;
      }
      if (c === '\\') {
        out += t.slice(chunk, this.pos);
        const e = t[this.pos + 1];
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e !== undefined && e in simple) {
          out += simple[e];
          this.pos += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(t.slice(this.pos + 2, this.pos + 6))) {
          out += String.fromCharCode(parseInt(t.slice(this.pos + 2, this.pos + 6), 16));
          this.pos += 6;
        } else {
          throw this.error(`invalid escape \`\\${e ?? ''}\` in a string`);
        }
        chunk = this.pos;
        continue;
      }
      if (c < ' ') throw this.error('control character in a string (write it as an escape such as \\t)');
      this.pos++;
    }
  }

  private parseNumber(): number {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (!m) throw this.error(`invalid number ${this.describeHere()}`);
    const after = this.text[this.pos + m[0].length];
    if (after !== undefined && /[0-9.eE]/.test(after)) throw this.error(`invalid number ${this.describeHere()}`);
    this.pos += m[0].length;
    return Number(m[0]);
  }
}
