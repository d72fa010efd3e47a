/**
 * Create Evaluation Config: quick picks built from the chosen file's detected columns (task,
 * label column, score, train counts file, groups, K…), then a valid `eval-lens.json` beside it,
 * checked against the config schema before it is written, and opened.
 */
import { open, readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import Papa from 'papaparse';
import * as vscode from 'vscode';
import type { Task } from '../../core';
import { COLUMN_ALIASES } from '../../core';
import { detectTask } from '../../core';
import { zipMembers } from '../../core';
import { parquetColumnNames, readParquetMetadata } from '../../core';
import { draftConfig, parseIntList, type ConfigAnswers } from '../../shared/configDraft';
import { writeConfig } from '../configWriter';
import type { EvalLensContext } from '../context';
import { isPredictionUri, pickPredictionFile, uriArgs } from './pick';

/** Column names from the first 64 KiB: CSV/TSV header, first JSONL object, first JSON row; a Parquet schema; .npz array names. */
export async function peekColumns(file: string): Promise<string[]> {
  const binExt = path.extname(file).toLowerCase();
  // Binary tables: the Parquet schema from the footer; the array names of an .npz archive.
  if (binExt === '.parquet' || binExt === '.pq') return parquetColumnNames(await readParquetMetadata(file));
  if (binExt === '.npz') return zipMembers(await readFile(file), file).map((m) => m.name.replace(/\.npy$/i, ''));
  const fh = await open(file, 'r');
  let text: string;
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    text = buf.toString('utf8', 0, bytesRead).replace(/^\uFEFF/, '');
  } finally {
    await fh.close();
  }
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv' || ext === '.tsv') {
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    const parsed = Papa.parse<string[]>(firstLine, { delimiter: ext === '.tsv' ? '\t' : ',' });
    return (parsed.data[0] ?? []).map((s) => s.trim()).filter(Boolean);
  }
  if (ext === '.jsonl' || ext === '.json') {
    const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
    try {
      const row = JSON.parse(firstLine) as unknown;
      if (row && typeof row === 'object' && !Array.isArray(row)) return Object.keys(row);
    } catch {
      // a JSON array or a long line: fall back to the keys of the first object in the text
    }
    const first = /\{[^{}]*\}/.exec(text)?.[0] ?? '';
    return [...new Set([...first.matchAll(/"([^"\\]+)"\s*:/g)].map((m) => m[1]!))];
  }
  return [];
}

function detected(columns: string[], role: keyof typeof COLUMN_ALIASES): string | undefined {
  const lower = columns.map((c) => c.toLowerCase());
  for (const a of COLUMN_ALIASES[role]) {
    const j = lower.indexOf(a);
    if (j >= 0) return columns[j];
  }
  return undefined;
}

interface Pick<T> extends vscode.QuickPickItem {
  value: T;
}

async function pick<T>(title: string, placeHolder: string, items: Pick<T>[]): Promise<T | undefined> {
  const c = await vscode.window.showQuickPick(items, { title, placeHolder, ignoreFocusOut: true });
  return c?.value;
}

export async function createConfigCommand(ctx: EvalLensContext, arg0?: unknown, arg1?: unknown): Promise<void> {
  let file = uriArgs(arg0, arg1).find(isPredictionUri);
  const active = vscode.window.activeTextEditor?.document.uri;
  if (!file && active && isPredictionUri(active)) file = active;
  file ??= await pickPredictionFile('Eval Lens: Create Evaluation Config — which prediction file?');
  if (!file) return;
  const dir = path.dirname(file.fsPath);
  const name = path.basename(file.fsPath);
  const title = `Eval Lens: config for ${name}`;
  const target = vscode.Uri.file(path.join(dir, 'eval-lens.json'));
  try {
    await vscode.workspace.fs.stat(target);
    const ok = await vscode.window.showWarningMessage(
      `${vscode.workspace.asRelativePath(target)} exists. Replace it?`,
      { modal: true },
      'Replace',
    );
    if (ok !== 'Replace') return;
  } catch {
    // no config yet
  }
  let columns: string[] = [];
  try {
    columns = await peekColumns(file.fsPath);
  } catch (err) {
    ctx.log.warn(`Create config: cannot read the columns of ${file.fsPath}: ${(err as Error).message}`);
  }
  let guess: Task = 'classification';
  try {
    guess = await detectTask(file.fsPath, {});
  } catch {
    // keep the default guess
  }
  const tasks: Pick<Task>[] = (
    [
      ['classification', 'labels and class probabilities/predictions'],
      ['iw-binary', 'binary labels, a score and a stratum (importance-weighted)'],
      ['ranking', 'ranked items per user and relevant items'],
    ] as const
  ).map(([t, d]) => ({ label: t, description: t === guess ? `${d} · detected` : d, value: t }));
  tasks.sort((a, b) => Number(b.value === guess) - Number(a.value === guess));
  const task = await pick(
    title,
    `Task (found columns: ${columns.slice(0, 8).join(', ')}${columns.length > 8 ? ', …' : ''})`,
    tasks,
  );
  if (!task) return;
  const answers: ConfigAnswers = { task };
  const siblings = (await readdir(dir)).filter((f) => f !== name);

  if (task !== 'ranking' && columns.length > 0) {
    const det = detected(columns, 'label');
    const label = await pick(
      title,
      'Which column holds the true label?',
      columns
        .map((c) => ({ label: c, description: c === det ? 'detected' : '', value: c }))
        .sort((a, b) => Number(b.value === det) - Number(a.value === det)),
    );
    if (label === undefined) return;
    answers.label = label;
    answers.detectedLabel = det;
  }
  if (task === 'classification') {
    const detScore = detected(columns, 'score');
    const scoreType = await pick(
      title,
      detScore
        ? `Confidence score for selective metrics (the file has "${detScore}", which is used when present)`
        : 'Confidence score for selective classification',
      [
        { label: 'msp', description: 'maximum softmax probability (default)', value: 'msp' as const },
        { label: 'margin', description: 'top-1 minus top-2 probability', value: 'margin' as const },
        { label: 'entropy', description: 'negative entropy of the probabilities', value: 'entropy' as const },
      ],
    );
    if (!scoreType) return;
    answers.scoreType = scoreType;
    const looksLikeCounts = (f: string): boolean => /count|freq|train/i.test(f);
    const countFiles = siblings
      .filter((f) => /\.(json|csv|txt)$/i.test(f) && !/\.(eval|compare)\.json$/i.test(f) && f !== 'eval-lens.json')
      .sort((a, b) => Number(looksLikeCounts(b)) - Number(looksLikeCounts(a)));
    const train = await pick(
      title,
      'Train counts per class (for long-tail, shot groups and shifted-distribution metrics)',
      [
        { label: 'None', description: 'no long-tail metrics', value: '' },
        ...countFiles.map((f) => ({
          label: f,
          description: looksLikeCounts(f) ? 'looks like train counts' : '',
          value: f,
        })),
      ],
    );
    if (train === undefined) return;
    if (train) {
      answers.trainCounts = train;
      const boundary = await vscode.window.showInputBox({
        title,
        prompt:
          'Group boundaries on the train-frequency rank (e.g. "6": the 6 most frequent classes are the head). Empty for none.',
        ignoreFocusOut: true,
        validateInput: (v) => (parseIntList(v) ? undefined : 'Positive integers separated by commas'),
      });
      if (boundary === undefined) return;
      const groups = parseIntList(boundary) ?? [];
      if (groups.length > 0) {
        answers.groups = groups;
        if (groups.length === 1) answers.groupNames = ['head', 'tail'];
      }
    }
  }
  if (task === 'ranking') {
    const k = await vscode.window.showInputBox({
      title,
      prompt: 'Cutoffs K for ranking metrics',
      value: '5, 10, 20, 50',
      ignoreFocusOut: true,
      validateInput: (v) => (parseIntList(v)?.length ? undefined : 'Positive integers separated by commas'),
    });
    if (k === undefined) return;
    answers.k = parseIntList(k);
    const hasInline = columns.some((c) => /^relevant$/i.test(c));
    if (!hasInline) {
      const rel = await pick(title, 'Ground truth (relevant items) file', [
        { label: 'None', description: 'relevance is inline in the file', value: '' },
        ...siblings
          .filter((f) => /\.(csv|tsv|jsonl|qrels|txt|parquet|pq)$/i.test(f))
          .map((f) => ({ label: f, value: f })),
      ]);
      if (rel === undefined) return;
      if (rel) answers.relevant = rel;
    }
  }
  const config = draftConfig(answers);
  try {
    await writeConfig(target, config);
  } catch (err) {
    ctx.log.error(`Create config: the draft is not valid: ${(err as Error).message}`);
    void vscode.window.showErrorMessage(`Cannot write eval-lens.json: ${(err as Error).message}`);
    return;
  }
  ctx.log.info(`Config written to ${target.fsPath}: ${JSON.stringify(config)}`);
  await vscode.window.showTextDocument(target);
  const go = await vscode.window.showInformationMessage(
    `Wrote ${vscode.workspace.asRelativePath(target)}. Evaluate ${name} with it now?`,
    'Evaluate',
  );
  if (go) await vscode.commands.executeCommand('evalLens.evaluate', file);
}
