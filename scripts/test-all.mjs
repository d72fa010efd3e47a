// The test stage of `npm test` (after build, typecheck and lint): unit tests, then the integration
// suite inside a real VS Code (code-server), then the UI tests in Chromium. Ends with ONE summary
// line, `tests: N passed, M failed[, K skipped]`, over all stages, and exits non-zero on any failure.
//
// Chromium (Debian's) and code-server are installed on first use when they can be (Chromium needs
// root for apt-get; otherwise the command to run is printed). A stage that still cannot run here
// (no Chromium, code-server not installable) is reported as SKIPPED
// with its reason, never silently, and the run then fails (exit 1) unless EVAL_LENS_ALLOW_SKIP=1:
// a run that skipped the real-VS-Code stages is not a green run. EVAL_LENS_SKIP_UI=1 /
// EVAL_LENS_SKIP_VSCODE=1 skip a stage on purpose (still reported, and still needing ALLOW_SKIP).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './vscode/chromium.mjs';
import { chromiumMissing, codeServerInstalled, ensureCodeServer, root } from './vscode/codeServer.mjs';

const allowSkip = process.env.EVAL_LENS_ALLOW_SKIP === '1';
const tmp = mkdtempSync(join(tmpdir(), 'eval-lens-test-all-'));
const stages = [];

/** Runs a command, streaming its output, and returns { code, out } (out: the text printed). */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const tee = (stream) => (b) => {
      out += b;
      stream.write(b);
    };
    p.stdout.on('data', tee(process.stdout));
    p.stderr.on('data', tee(process.stderr));
    p.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

/** Counts from node's test runner (`ℹ pass N`, `ℹ fail N`, `ℹ skipped N`, `ℹ todo N`, `ℹ cancelled N`). */
function nodeCounts(out) {
  const n = (name) =>
    [...out.matchAll(new RegExp(`^\\S*\\s*ℹ ${name} (\\d+)`, 'gm'))].reduce((s, m) => s + Number(m[1]), 0);
  return { passed: n('pass'), failed: n('fail') + n('cancelled'), skipped: n('skipped') + n('todo') };
}

function banner(text) {
  console.log(`\n━━ ${text} ${'━'.repeat(Math.max(0, 70 - text.length))}`);
}

function record(name, counts, code, note) {
  // A stage that exits non-zero without failing tests (a crash, a timeout) counts as one failure.
  const failed = counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0);
  stages.push({ name, passed: counts.passed, failed, skipped: counts.skipped, note });
}

function skip(name, reason) {
  console.log(`\nSKIPPED ${name}: ${reason}`);
  stages.push({ name, passed: 0, failed: 0, skipped: 0, skippedStage: reason });
}

const t0 = Date.now();

// 1. Unit tests (node's test runner).
banner('unit tests');
{
  const { code, out } = await run(process.execPath, ['scripts/run-unit-tests.mjs']);
  record('unit', nodeCounts(out), code);
}

// 2/3 need code-server and Chromium.
let vscodeReason = null;
let uiReason = null;
if (process.env.EVAL_LENS_SKIP_VSCODE === '1') vscodeReason = 'EVAL_LENS_SKIP_VSCODE=1';
if (process.env.EVAL_LENS_SKIP_UI === '1') uiReason = 'EVAL_LENS_SKIP_UI=1';
// Debian's Chromium: installed here when missing and running as root (else the command is printed).
let chromiumWhy = null;
if (!(vscodeReason && uiReason) && chromiumMissing()) {
  banner('Chromium for the VS Code stages');
  chromiumWhy = ensureChromium();
}
const noChromium = chromiumMissing() && (chromiumWhy ?? chromiumMissing());
if (noChromium) {
  vscodeReason ??= noChromium;
  uiReason ??= noChromium;
}
if (!(vscodeReason && uiReason) && !codeServerInstalled()) {
  banner('installing code-server (first run only, 3 to 10 minutes)');
  const why = ensureCodeServer();
  if (why) {
    vscodeReason ??= `code-server could not be installed: ${why}`;
    uiReason ??= `code-server could not be installed: ${why}`;
  }
}

// 2. Integration suite in a real VS Code (code-server).
if (vscodeReason) skip('integration (code-server)', vscodeReason);
else {
  banner('integration tests in VS Code (code-server)');
  const file = join(tmp, 'integration.json');
  const { code } = await run(process.execPath, ['scripts/vscode/run-code-server-tests.mjs'], {
    EVAL_LENS_RESULTS_FILE: file,
  });
  let c = { passed: 0, failed: 0, skipped: 0 };
  try {
    c = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    /* runner crashed before writing */
  }
  if (c.skipped === true) {
    stages.push({ name: 'integration (code-server)', passed: 0, failed: 0, skipped: 0, skippedStage: c.reason });
    console.log(`SKIPPED integration: ${c.reason}`);
  } else record('integration (code-server)', c, code);
}

// 3. UI tests (Chromium + code-server).
if (uiReason) skip('ui (Chromium)', uiReason);
else {
  banner('UI tests in Chromium');
  const { code, out } = await run(process.execPath, ['scripts/vscode/run-ui-tests.mjs', '--no-build']);
  record('ui (Chromium)', nodeCounts(out), code);
}

rmSync(tmp, { recursive: true, force: true });

// Summary.
banner(`summary (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
for (const s of stages) {
  if (s.skippedStage) console.log(`  ${s.name.padEnd(28)} SKIPPED — ${s.skippedStage}`);
  else
    console.log(
      `  ${s.name.padEnd(28)} ${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ''}`,
    );
}
const skippedStages = stages.filter((s) => s.skippedStage);
if (skippedStages.length > 0) {
  console.log(
    allowSkip
      ? `\n${skippedStages.length} stage(s) skipped; EVAL_LENS_ALLOW_SKIP=1, so the run may pass without them.`
      : `\n${skippedStages.length} stage(s) skipped: NOT a full run. Fix the reason above, or set EVAL_LENS_ALLOW_SKIP=1 to accept it.`,
  );
}
const passed = stages.reduce((s, x) => s + x.passed, 0);
const failed = stages.reduce((s, x) => s + x.failed, 0);
const skipped = stages.reduce((s, x) => s + x.skipped, 0);
const ok = failed === 0 && (skippedStages.length === 0 || allowSkip);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok ? 0 : 1);
