/**
 * `eval-lens partial FILE -o part.npz`: one shard's partial statistics of a classification file
 * (src/core/partial/partial.ts), which `eval-lens merge` (merge.ts) turns into results. Point
 * estimates only in this version: no bootstrap intervals.
 */
import { resolve, relative } from 'node:path';
import type { Command } from 'commander';
import { countText, findConfigBeside, isInside, partialOfFile } from '../core';
import { addConfigFlags, configFromFlags } from './configFlags';
import { UsageError } from './errors';
import { helpTail } from './help';
import { checkInput, existingOutput, real, workspaceRoot, writeAtomically } from './files';

interface PartialFlags {
  config?: string;
  out?: string;
  shard?: string;
  root?: string;
  bootstrapN?: string;
  [key: string]: unknown;
}

/** `i/N` with 1 ≤ i ≤ N. */
function parseShard(text: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(index >= 1 && index <= count && count <= 1_000_000))
    throw new UsageError(`--shard expects i/N with 1 ≤ i ≤ N (e.g. --shard 2/8), got "${text}".`);
  return { index, count };
}

/** Registers `partial` on the program. */
export function registerPartial(program: Command): void {
  const cmd = program
    .command('partial')
    .description(
      'Compute the partial statistics of one shard of a classification file (sums and the sorted run, as one .npz) for `eval-lens merge`. Point estimates only: no bootstrap intervals in this version.',
    )
    .argument('<file>', 'the shard: a prediction file holding some of the rows (cut at row boundaries)')
    .requiredOption('-o, --out <file>', 'write the partial file here (.npz)')
    .option(
      '-c, --config <file>',
      'config file (default: eval-lens.json beside FILE, if any); the same for every shard',
    )
    .option('--shard <i/N>', "this shard's place among N shards (1-based): the merge orders the shards by it")
    .option(
      '--root <dir>',
      "workspace root: paths in the config must stay inside it (default: the current folder, or the config's folder when the config lies outside it)",
    )
    .option('--bootstrap-n <n>', 'only 0 is accepted: this version computes no intervals')
    .addHelpText(
      'after',
      helpTail(
        [
          'eval-lens partial part-1.csv --shard 1/2 -c eval-lens.json -o part-1.npz',
          'eval-lens partial part-2.csv --shard 2/2 -c eval-lens.json -o part-2.npz',
          'eval-lens merge part-*.npz -o results.eval.json',
        ],
        [
          'Intervals: none in this version. A config asking for bootstrap resamples is evaluated without them',
          '(the stored config has bootstrap.n = 0), so the merged results equal `eval-lens evaluate --bootstrap-n 0`',
          'on the whole file. Not supported yet: a train distribution (trainCounts, classWeights), groups,',
          'subgroupColumn, slices, a fold column, a validation/test split, score "margin"/"entropy"; other tasks.',
        ],
      ),
    );
  const flags = addConfigFlags(cmd);
  cmd.action(async (file: string, opts: PartialFlags) => {
    const cwd = process.cwd();
    if (opts.bootstrapN !== undefined && Number(opts.bootstrapN) !== 0)
      throw new UsageError(
        `--bootstrap-n ${opts.bootstrapN}: \`eval-lens partial\` computes point estimates only in this version (no intervals); leave --bootstrap-n out or give 0.`,
      );
    const { bootstrapN: _n, ...rest } = opts;
    const overrides = configFromFlags(rest, flags, cwd);
    const shard = opts.shard !== undefined ? parseShard(opts.shard) : null;
    const input = resolve(cwd, file);
    await checkInput(input, file);
    const configPath = opts.config !== undefined ? resolve(cwd, opts.config) : await findConfigBeside(input);
    const root = workspaceRoot(cwd, opts.root, configPath ?? input);
    const out = resolve(cwd, opts.out!);
    const target = await real(out);
    for (const i of [input, configPath])
      if (i && (await real(i)) === target)
        throw new UsageError(
          `--out ${opts.out} is an input of this command; refusing to overwrite it. Choose another file, e.g. part-1.npz.`,
        );
    // Only a partial file (a zip) is replaced: never a prediction file given by mistake.
    const head = await existingOutput(out, '--out', opts.out!, 'part-1.npz', async (p) => {
      const { open } = await import('node:fs/promises');
      const fh = await open(p, 'r');
      try {
        const b = Buffer.alloc(4);
        await fh.read(b, 0, 4, 0);
        return b.toString('latin1');
      } finally {
        await fh.close();
      }
    });
    if (head !== null && head !== 'PK\u0003\u0004')
      throw new UsageError(`--out ${opts.out} exists and is not an .npz file; refusing to overwrite it.`);
    const { bytes, meta, intervalsLeftOut } = await partialOfFile(file, { configPath, overrides, root, shard });
    if (intervalsLeftOut > 0 && opts.bootstrapN === undefined)
      process.stderr.write(
        `Note: the bootstrap is set to ${intervalsLeftOut} resamples (the configuration or the default); \`eval-lens partial\` computes point estimates only in this version (the shard is stored with bootstrap n = 0), so the merged results have no intervals. Give --bootstrap-n 0 to silence this note.\n`,
      );
    await writeAtomically(out, '', 'the partial file', (fh) => fh.writeFile(bytes));
    process.stderr.write(
      `Partial statistics of ${countText(meta.rows)} rows${shard ? ` (shard ${shard.index}/${shard.count})` : ''} written to ${isInside(cwd, out) ? relative(cwd, out) : out}\n`,
    );
  });
}
