/**
 * `eval-lens merge PART... -o results.json`: the results of a classification file from the partial
 * files of its shards (`eval-lens partial`, src/core/partial/merge.ts): the results `evaluate`
 * gives for the shards' rows as one file, with the bootstrap off. Prints the metrics as
 * `evaluate` does.
 */
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import {
  formatCsv,
  formatMarkdown,
  formatTable,
  isInside,
  mergePartialFiles,
  resultsJsonChunks,
  RESULTS_SCHEMA_ID,
} from '../core';
import { UsageError } from './errors';
import { helpTail } from './help';
import { checkInput, existingOutput, real, writeAtomically } from './files';

const FORMATS = ['table', 'json', 'markdown', 'csv'] as const;

interface MergeFlags {
  out?: string;
  format: (typeof FORMATS)[number];
  percent?: boolean;
}

/** Registers `merge` on the program. */
export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description(
      'Merge the partial files of the shards of a classification file (from `eval-lens partial`) into its results: the same metrics, curves and tables as evaluating the whole file. Point estimates only: no bootstrap intervals in this version.',
    )
    .argument('<parts...>', 'the partial files (.npz), one per shard, in any order when made with --shard i/N')
    .option('-o, --out <file>', 'also write the results JSON here (e.g. results.eval.json)')
    .addOption(new Option('-f, --format <format>', 'what to print on stdout').choices(FORMATS).default('table'))
    .option('--percent', 'show rates as percentages in table and markdown output')
    .addHelpText(
      'after',
      helpTail(
        ['eval-lens merge part-1.npz part-2.npz -o results.eval.json'],
        [
          'The shards must be made with the same config and class list (list `classes` in the config) and',
          'the same Eval Lens version; each file is checked (its meta, every array, its sums against its rows)',
          'before use. The results name every shard in source.extra, with the SHA-256 of its partial file and',
          'of its source file. Without --shard, the shards are taken in the order given.',
        ],
      ),
    )
    .action(async (parts: string[], opts: MergeFlags) => {
      const cwd = process.cwd();
      const files = parts.map((p) => resolve(cwd, p));
      for (let i = 0; i < files.length; i++) await checkInput(files[i]!, parts[i]!);
      const out = opts.out !== undefined ? resolve(cwd, opts.out) : undefined;
      if (out) {
        const target = await real(out);
        for (const f of files)
          if ((await real(f)) === target)
            throw new UsageError(`--out ${opts.out} is one of the partial files; refusing to overwrite it.`);
        const head = await existingOutput(out, '--out', opts.out!, 'results.eval.json', (p) =>
          readFile(p, 'utf8').then((t) => t.slice(0, 4096)),
        );
        if (
          head !== null &&
          !new RegExp(`^\\s*\\{\\s*"schema"\\s*:\\s*"${RESULTS_SCHEMA_ID.replace(/[/.@]/g, '\\$&')}"`).test(head)
        )
          throw new UsageError(
            `--out ${opts.out} exists and is not an Eval Lens results file; refusing to overwrite it.`,
          );
      }
      // paths as given: the results name the partial files as the user wrote them
      const results = await mergePartialFiles(parts);
      if (out) {
        await writeAtomically(out, resultsJsonChunks(results), 'the results');
        process.stderr.write(
          `Results of ${parts.length} shard${parts.length > 1 ? 's' : ''} written to ${isInside(cwd, out) ? relative(cwd, out) : out}\n`,
        );
      }
      const percent = opts.percent === true;
      if (opts.format === 'json') for (const chunk of resultsJsonChunks(results)) process.stdout.write(chunk);
      else if (opts.format === 'csv') process.stdout.write(formatCsv(results));
      else if (opts.format === 'markdown') process.stdout.write(formatMarkdown(results, { percent }));
      else
        process.stdout.write(
          formatTable(results, { percent, maxWidth: process.stdout.isTTY ? process.stdout.columns : undefined }),
        );
    });
}
