// `npm run test:vscode`: the integration suite (test/integration) inside a real VS Code — code-server
// from npm, driven by Debian's Chromium — on machines that cannot download VS Code desktop.
//
// 1. builds the extension and the suite, installs code-server on first use;
// 2. starts code-server isolated (temp user-data/extensions/XDG dirs, 127.0.0.1, free port) with the
//    smoke-test driver on, and a temp COPY of examples/ as the workspace (tests write files there);
// 3. opens the workbench URL whose payload names the project as extensionDevelopmentPath and the
//    compiled suite as extensionTestsPath; the suite's lines come back through codeAutomationLog
//    and the page console, its status through codeAutomationExit;
// 4. exits with the suite's status (2 on timeout / infrastructure error) and ALWAYS tears down.
//
// Options: --grep <re> (mocha grep), --no-build, --timeout <s> (default 900), --verbose (all
// workbench log lines), --multi-root-only / --no-multi-root (run one of the two passes), --extension <dir> (the extension to test, default the project: used to
// check that a deliberately broken build makes the suite fail). Writes the counts to $EVAL_LENS_RESULTS_FILE when set (for test-all).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromiumMissing,
  codeServerInstalled,
  copyExamples,
  ensureCodeServer,
  launchChromium,
  multiRootWorkspace,
  removeTempDirs,
  root,
  startCodeServer,
  tempDir,
  workbenchUrl,
} from './codeServer.mjs';

const MARK = '[eval-lens-it]';
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const verbose = argv.includes('--verbose');
const timeoutS = Number(opt('--timeout') ?? process.env.EVAL_LENS_IT_TIMEOUT ?? 900);

function writeCounts(c) {
  if (process.env.EVAL_LENS_RESULTS_FILE) writeFileSync(process.env.EVAL_LENS_RESULTS_FILE, JSON.stringify(c));
}

function skip(reason) {
  console.error(`test:vscode SKIPPED: ${reason}`);
  writeCounts({ skipped: true, reason });
  process.exit(3);
}

async function main() {
  const noChromium = chromiumMissing();
  if (noChromium) skip(noChromium);
  if (!codeServerInstalled()) {
    console.log('code-server is not installed yet: installing it (first use, 3 to 10 minutes)…');
    const why = ensureCodeServer();
    if (why) skip(why);
  }
  if (!argv.includes('--no-build')) {
    for (const cmd of [['scripts/build.mjs'], ['test/integration/build.mjs']]) {
      const r = spawnSync(process.execPath, cmd, { cwd: root, stdio: 'inherit' });
      if (r.status !== 0) {
        console.error(`build failed: node ${cmd.join(' ')}`);
        process.exit(2);
      }
    }
  }
  const suite = join(root, 'out/test/integration/index.js');
  if (!existsSync(suite)) {
    console.error(`no compiled suite at ${suite}`);
    process.exit(2);
  }

  const workspace = copyExamples();
  const resultsFile = join(tempDir('it-results'), 'results.json');
  const t0 = Date.now();
  // One code-server per window: a window opened on a `.code-workspace` after a folder window on the
  // same server came up with no folder at all (the server keeps the first window's state).
  const serverFor = () =>
    startCodeServer({
      smokeTestDriver: true,
      env: {
        EVAL_LENS_TEST_RESULTS: resultsFile,
        ...(opt('--grep') ? { EVAL_LENS_TEST_GREP: opt('--grep') } : {}),
      },
      onLog: verbose ? (l) => console.log(`[server] ${l}`) : undefined,
    });
  let server = await serverFor();
  console.log(`code-server ${server.url} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s; workspace ${workspace}`);

  // Two passes, each on its own server: the examples folder (every suite but the multi-root one), then a
  // `.code-workspace` with two folders (the multi-root suite only; the suite picks its files by
  // what the window has open). --multi-root-only runs the second pass alone.
  const passes = [];
  if (!argv.includes('--multi-root-only')) passes.push(['folder', workspace]);
  if (!argv.includes('--no-multi-root')) passes.push(['multi-root workspace', multiRootWorkspace()]);
  let status = 0;
  const total = { passed: 0, failed: 0, skipped: 0 };
  let unfinished = false;
  try {
    for (const [i, [label, target]] of passes.entries()) {
      rmSync(resultsFile, { force: true });
      if (i > 0) {
        await server.stop();
        server = await serverFor();
      }
      const pass = await runPass(server, target);
      if (pass.status !== 0 && status === 0) status = pass.status;
      let counts = null;
      try {
        counts = JSON.parse(readFileSync(resultsFile, 'utf8'));
      } catch {
        /* suite did not get to write it */
      }
      if (counts) {
        for (const f of counts.failures) console.error(`FAILED ${f.title}\n${f.error}\n`);
        console.log(
          `integration (${label}): ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`,
        );
        total.passed += counts.passed;
        total.failed += counts.failed;
        total.skipped += counts.skipped;
      } else {
        // No end: count what was printed, plus one failure for the unfinished run.
        console.error(
          `integration (${label}): the suite did not finish; before it stopped: ${pass.partial.passed} passed, ${pass.partial.failed} failed`,
        );
        total.passed += pass.partial.passed;
        total.failed += pass.partial.failed + 1;
        total.skipped += pass.partial.skipped;
        unfinished = true;
        if (status === 0) status = 2;
      }
    }
  } finally {
    await server.stop();
  }
  console.log(
    `integration: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
  writeCounts({ ...total, ...(unfinished ? { error: 'unfinished' } : {}) });
  removeTempDirs();
  return status;
}

/** Opens the workbench on `target` (a folder or a `.code-workspace`) and runs the suite once. */
async function runPass(server, target) {
  let browser;
  let status;
  const partial = { passed: 0, failed: 0, skipped: 0 };
  let summaryStarted = false;
  try {
    browser = await launchChromium();
    const page = browser.pages()[0] ?? (await browser.newPage());
    // Extension-host console lines reach the page console (the suite's marked lines among them);
    // codeAutomationLog carries the workbench's own log, shown only with --verbose.
    const relay = (text, channel) => {
      for (const line of String(text).split('\n')) {
        const i = line.indexOf(MARK);
        if (i >= 0 && channel === 'console') {
          const text = line.slice(i + MARK.length + 1);
          console.log(text);
          // Running counts, for a suite that never reaches its end (timeout, crash).
          if (/^\s+✔ /.test(text)) partial.passed++;
          else if (/^\s+\d+\) /.test(text) && !summaryStarted) partial.failed++;
          else if (/^\s+- /.test(text)) partial.skipped++;
          if (/^\s+\d+ passing/.test(text)) summaryStarted = true;
        } else if (verbose && i < 0) console.log(`[${channel}] ${line}`);
      }
    };
    let finish;
    const done = new Promise((r) => {
      finish = r;
    });
    // Both functions must exist before the workbench loads: expose them, then navigate.
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      relay(
        (Array.isArray(args) ? args : [args]).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '),
        'workbench',
      );
    });
    await page.exposeFunction('codeAutomationExit', (code) => finish(Number(code)));
    page.on('console', (m) => relay(m.text(), 'console'));
    page.on('pageerror', (e) => {
      if (verbose) console.log(`[pageerror] ${e.message}`);
    });
    const extensionDevelopmentPath = opt('--extension') ?? root;
    const url = workbenchUrl(server, target, {
      extensionDevelopmentPath,
      extensionTestsPath: join(root, 'out/test/integration/index.js'),
    });
    await page.goto(url);
    const timer = new Promise((r) => setTimeout(() => r('timeout'), timeoutS * 1000));
    const result = await Promise.race([done, timer]);
    if (result === 'timeout') {
      console.error(`test:vscode: the suite did not finish within ${timeoutS} s`);
      status = 2;
    } else status = result;
  } finally {
    if (browser) await browser.close().catch(() => {});
  }
  return { status, partial };
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err?.stack ?? err);
    removeTempDirs();
    process.exit(2);
  },
);
