/**
 * `eval-lens explain [KEY]`: what a metric key means — its name, meaning, formula, convention,
 * the alternatives it is not, its direction and its published references. Without KEY, every
 * family with its keys. The text comes from the glossary (src/core/glossary), the same entries
 * the report and the docs show.
 */
import { Option, type Command } from 'commander';
import { GLOSSARY, explainKey, formatExplanation, formatGlossaryIndex, referencesOf, referenceLink } from '../core';
import { UsageError } from './errors';
import { editDistance } from '../core';

interface ExplainFlags {
  format: 'text' | 'json';
}

/** Patterns close to an unknown key: containing it, or within two edits of it. */
function suggestions(key: string): string[] {
  const k = key.toLowerCase().replace(/\d+/g, '');
  return GLOSSARY.map((e) => e.pattern)
    .filter((p) => {
      const q = p.toLowerCase().replace(/<[kKg]>/g, '');
      return (k.length >= 3 && q.includes(k)) || editDistance(k, q) <= 2;
    })
    .slice(0, 8);
}

/** Registers `explain` on the program. */
export function registerExplain(program: Command): void {
  program
    .command('explain')
    .description(
      'Explain a metric key: name, meaning, formula, convention, direction and published references. Without KEY, list every key.',
    )
    .argument(
      '[key]',
      'a metric key as it appears in results, e.g. aurc_grid101_0.2_1, recall@10, error_group.tail, p_holm',
    )
    .addOption(
      new Option('-f, --format <format>', 'text, or the entry as JSON').choices(['text', 'json']).default('text'),
    )
    .action((key: string | undefined, flags: ExplainFlags) => {
      if (key === undefined) {
        process.stdout.write(
          flags.format === 'json' ? `${JSON.stringify(GLOSSARY, null, 2)}\n` : formatGlossaryIndex(),
        );
        return;
      }
      const e = explainKey(key);
      if (!e) {
        const near = suggestions(key);
        throw new UsageError(
          `unknown metric key "${key}".${near.length > 0 ? ` Did you mean: ${near.join(', ')}?` : ''} Run \`eval-lens explain\` to list every key.`,
        );
      }
      if (flags.format === 'json') {
        const references = referencesOf(e).map((r) => ({ ...r, link: referenceLink(r) }));
        process.stdout.write(`${JSON.stringify({ ...e, references }, null, 2)}\n`);
      } else {
        process.stdout.write(formatExplanation(e));
      }
    });
}
