// Every text a user reads about seen-item masking — `eval-lens evaluate --help`, the docs pages and
// the README — says what the code does: with `train`, seen items are masked by default
// (`maskSeen: true`), and `maskSeen: false` keeps them. The default is checked against a real
// evaluation, so a text cannot go on saying "masked" while the lists are only warned about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerEvaluate } from '../../../src/cli/evaluate';
import { CONFIG_SCHEMA } from '../../../src/core/config/check';
import { MASK_SEEN_DEFAULT } from '../../../src/core/metrics/ranking/maskSeen';
import { evaluateFile } from '../../../src/core/evaluate';
import type { EvalConfig } from '../../../src/core/config/types';

const ROOT = process.cwd();

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? markdownFiles(p) : name.endsWith('.md') ? [p] : [];
  });
}

/** The sentences of `text` that mention masking (case-insensitive), whitespace collapsed. */
function maskSentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?|])\s+(?=[A-Z`|*-])/)
    .filter((s) => /mask/i.test(s));
}

function evaluateHelp(): string {
  const program = new Command('eval-lens');
  registerEvaluate(program);
  return program.commands.find((c) => c.name() === 'evaluate')!.helpInformation();
}

/** What the code does when `maskSeen` is not given: a run with one seen item, evaluated. */
async function maskedByDefault(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'ranking-mask-wording-'));
  writeFileSync(join(dir, 'run.jsonl'), '{"user":"u","items":["a","b"],"relevant":["b"]}\n');
  writeFileSync(join(dir, 'train.csv'), 'user,item\nu,a\n');
  const r = await evaluateFile(join(dir, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [1], train: 'train.csv', bootstrap: { n: 0 } } as EvalConfig,
  });
  const masked = r.metrics['recall@1']!.value === 1; // b moved up to rank 1
  assert.equal(
    r.warnings.some((w) => w.code === 'seen-items-masked'),
    masked,
  );
  assert.equal(
    r.warnings.some((w) => w.code === 'seen-items-recommended'),
    !masked,
  );
  return masked;
}

test('seen-item masking: --help, the docs and the README say what the default does', async () => {
  const byDefault = await maskedByDefault();
  assert.equal(byDefault, MASK_SEEN_DEFAULT);
  const schemaDefault = (CONFIG_SCHEMA.properties!.maskSeen as { default?: unknown }).default;
  assert.equal(schemaDefault, byDefault, 'the config schema default');

  // --help: the flag is there, says what it does and its default.
  const help = evaluateHelp().replace(/\s+/g, ' ');
  assert.match(help, /--mask-seen <true\|false>/);
  assert.match(help, new RegExp(`masks seen items: drops from each user's list .* \\(default ${byDefault}`));
  assert.match(
    help,
    /--train <path> Ranking: training interactions \(`user,item`\), for seen-item masking \(`maskSeen`, on by default\)/,
  );

  // Every sentence of the docs, the README and --help that mentions masking.
  const texts = [
    ...markdownFiles(join(ROOT, 'docs')).map((p) => ({
      file: p.slice(ROOT.length + 1),
      text: readFileSync(p, 'utf8'),
    })),
    { file: 'README.md', text: readFileSync(join(ROOT, 'README.md'), 'utf8') },
    { file: 'eval-lens evaluate --help', text: help },
  ];
  const sentences = texts.flatMap(({ file, text }) => maskSentences(text).map((s) => ({ file, s })));
  // The seen-item ones: masking of train items (the factor model's scoring masks them too).
  const seen = sentences.filter(({ s }) => /seen|train|history|already/i.test(s));
  assert.ok(seen.length >= 5, `expected the masking sentences of several texts, got ${seen.length}`);
  const wrong = byDefault
    ? // on by default: no text may say seen items are kept, not masked, or only warned about by default
      /(not masked|only warned|unmasked by default|masking is off|maskSeen[`"]?: ?true[`"]? (evaluates|keeps))/i
    : /(masked by default|on by default|maskSeen[`"]?,? default [`"]?true)/i;
  for (const { file, s } of seen) assert.doesNotMatch(s, wrong, `${file}: "${s}"`);
  // Wherever the key is named with its default, the default is the code's.
  for (const { file, s } of sentences) {
    const m = /`maskSeen`[^.]*?default[ `"]*(true|false|on|off)\b/i.exec(s);
    if (m) assert.equal(/true|on/i.test(m[1]!), byDefault, `${file}: "${s}"`);
  }
  // The pages a ranking user reads each say it.
  for (const page of ['docs/configuration.md', 'docs/metrics/ranking.md', 'README.md', 'eval-lens evaluate --help'])
    assert.ok(
      seen.some((x) => x.file === page),
      `${page} does not mention seen-item masking`,
    );
  // "evaluated as they are" (the behaviour with maskSeen off) is always tied to `maskSeen: false`.
  for (const { file, text } of texts)
    for (const s of text.replace(/\s+/g, ' ').split(/(?<=[.|])\s+/))
      if (/seen/i.test(s) && /evaluated as they are|evaluates the lists as they are/i.test(s))
        assert.match(s, /maskSeen[`"]?: ?false|`false`|seen-items-recommended|with `maskSeen` off/, `${file}: "${s}"`);
});
