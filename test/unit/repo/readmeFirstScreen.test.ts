/**
 * The README is what a newcomer reads first: what the product is, a picture of it and the two
 * commands — with their time and disk use — must be on its first screen, the rest in `docs/`. And
 * every relative link of the README and of `docs/` must lead to a file (or a heading) that exists,
 * so moving a section never leaves a dead link behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = process.cwd();
/** What fits on one screen of a rendered README (about 40 source lines of prose, a picture, a table). */
const FIRST_SCREEN_LINES = 40;

test('the first screen of the README says what it is, shows it, and gives the two commands with their cost', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const first = readme.split('\n').slice(0, FIRST_SCREEN_LINES).join('\n');
  assert.match(first, /^# Eval Lens\n\nEval Lens /, 'opens with one plain paragraph saying what it is');
  assert.match(first, /!\[[^\]]+\]\(media\/screenshots\/[\w-]+\.png\)/, 'a screenshot');
  assert.match(first, /^npm ci && npm run demo\b/m, 'the command that runs the examples');
  assert.match(first, /^npm test\b/m, 'the command that runs every test');
  assert.match(first, /\d+ minutes? idle, \d+ minutes? with both cores busy/, 'how long the tests take, idle and busy');
  assert.match(first, /\d+ MB/, 'the disk they use');
  assert.match(first, /Debian/, 'which kind of machine');
});

test('the README stays an overview: the details live in docs/', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
  assert.ok(lines <= 280, `README.md has ${lines} lines; move details into docs/`);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function markdownFiles(): string[] {
  const out = [join(ROOT, 'README.md'), join(ROOT, 'SECURITY.md')];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) out.push(p);
    }
  };
  walk(join(ROOT, 'docs'));
  return out;
}

test('every relative link of the README and docs/ leads to an existing file and heading', () => {
  const dead: string[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#') as [string, string | undefined];
      const resolved = pathPart === '' ? file : join(dirname(file), decodeURIComponent(pathPart));
      const where = `${relative(ROOT, file)} → ${target}`;
      if (!existsSync(resolved)) {
        dead.push(`${where} (no such file)`);
        continue;
      }
      if (anchor && resolved.endsWith('.md')) {
        const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((h) => anchorOf(h[1]!));
        if (!headings.includes(anchor)) dead.push(`${where} (no such heading)`);
      }
    }
  }
  assert.deepEqual(dead, []);
});
