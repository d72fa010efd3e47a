// What the generators of git-ignored TypeScript modules share (gen-byte-copies.mjs,
// gen-xoshiro-loops.mjs): the notice that opens a generated module, its formatting, and writing
// it only when its text changes (so that a build does not touch an unchanged file).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `code` opened by `notice` and formatted by Prettier as `template` (a path from the repository's
 * root) is. A module's TSDoc stays its first text (the metric modules' References test reads it
 * there), so the notice opens that comment when the code has one.
 */
export async function generatedModule(code, notice, template) {
  const withNotice = code.startsWith('/**\n')
    ? `/**\n * ${notice}\n *\n${code.slice('/**\n'.length)}`
    : `// ${notice}\n${code}`;
  const config = (await prettier.resolveConfig(join(root, template))) ?? {};
  return prettier.format(withNotice, { ...config, parser: 'typescript' });
}

/** Writes `code` to `path` (absolute) when the file is missing or holds other text. */
export function writeIfChanged(path, code) {
  if (existsSync(path) && readFileSync(path, 'utf8') === code) return;
  writeFileSync(path, code);
  console.log(`wrote ${path}`);
}
