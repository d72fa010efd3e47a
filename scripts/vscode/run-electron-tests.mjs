// `npm run test:electron`: the SAME integration suite (out/test/integration/index.js) in VS Code
// desktop through @vscode/test-electron, for machines that can download VS Code (a developer's
// desktop, most CI services). On machines without that network access it fails at the download
// and says so, pointing at `npm run test:vscode` (code-server from npm), which runs the same suite.
//
// Options: --grep <re>, --no-build, --version <vscode version> (default "stable", as most users
// run). Headless Linux needs a display: run under `xvfb-run -a`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};

if (!argv.includes('--no-build')) {
  for (const cmd of [['scripts/build.mjs'], ['test/integration/build.mjs']]) {
    const r = spawnSync(process.execPath, cmd, { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(`build failed: node ${cmd.join(' ')}`);
      process.exit(2);
    }
  }
}

const { downloadAndUnzipVSCode, runTests } = await import('@vscode/test-electron');
const version = opt('--version') ?? 'stable';
let executable;
try {
  executable = await downloadAndUnzipVSCode({ version, cachePath: join(root, '.vscode-test') });
} catch (err) {
  const msg = String(err?.message ?? err);
  console.error(`test:electron: could not download VS Code desktop (${version}): ${msg.split('\n')[0]}`);
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|getaddrinfo|network/i.test(msg)) {
    console.error('This machine cannot reach the VS Code download servers. Run the same suite in code-server');
    console.error('from npm instead: npm run test:vscode (see docs/testing.md).');
  }
  process.exit(2);
}

const tmp = mkdtempSync(join(tmpdir(), 'eval-lens-electron-'));
const workspace = join(tmp, 'examples');
cpSync(join(root, 'examples'), workspace, { recursive: true, filter: (s) => !/\.(eval|compare)\.json$/.test(s) });
const resultsFile = join(tmp, 'results.json');
let code;
try {
  code = await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out/test/integration/index.js'),
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      '--user-data-dir',
      join(tmp, 'user-data'),
      '--extensions-dir',
      join(tmp, 'extensions'),
    ],
    extensionTestsEnv: {
      EVAL_LENS_TEST_RESULTS: resultsFile,
      ...(opt('--grep') ? { EVAL_LENS_TEST_GREP: opt('--grep') } : {}),
    },
  }).then(
    () => 0,
    () => 1,
  );
  try {
    const c = JSON.parse(readFileSync(resultsFile, 'utf8'));
    console.log(
      `integration (VS Code desktop): ${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`,
    );
  } catch {
    /* the suite did not write counts */
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
