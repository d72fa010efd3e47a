// `npm start`: the real extension in a real VS Code, in the browser, for people without VS Code
// desktop. Builds the extension, installs code-server on first use (≈3 min), starts it on
// 127.0.0.1 with the extension installed (a symlink to this folder) and prints the address.
// Ctrl-C stops it (the whole process group).
//
//   npm start                     the examples, in a git-ignored copy (.cache/start/workspace) that
//                                 persists between runs: your evaluations stay, the repo stays clean
//   npm start -- --fresh          the same, with the copy and the profile re-made from examples/
//   npm start -- <folder>         any folder of your own (results are written beside your files)
//   npm start -- --port 8080      a fixed port (default: a free one in 20000–40000)
//
// The profile (settings, theme, open editors) persists in .cache/start/state. Only 127.0.0.1 is
// bound and there is no password: do not expose the port.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeServerInstalled, ensureCodeServer, root, startCodeServer } from './vscode/codeServer.mjs';

const argv = process.argv.slice(2);
const fresh = argv.includes('--fresh');
const portArg = argv.indexOf('--port') >= 0 ? Number(argv[argv.indexOf('--port') + 1]) : undefined;
if (portArg !== undefined && !(Number.isInteger(portArg) && portArg > 0 && portArg < 65536)) {
  console.error('npm start: --port needs a port number (1–65535)');
  process.exit(1);
}
const folderArg = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--port');

const home = join(root, '.cache/start');
const stateDir = join(home, 'state');
let workspace;
if (folderArg) {
  workspace = resolve(process.cwd(), folderArg);
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    console.error(`npm start: ${workspace} is not a folder`);
    process.exit(1);
  }
} else {
  workspace = join(home, 'workspace', 'examples');
  if (fresh) rmSync(join(home, 'workspace'), { recursive: true, force: true });
  if (!existsSync(workspace)) {
    mkdirSync(join(home, 'workspace'), { recursive: true });
    cpSync(join(root, 'examples'), workspace, { recursive: true, filter: (s) => !/\.(eval|compare)\.json$/.test(s) });
  }
}
if (fresh) rmSync(stateDir, { recursive: true, force: true });
mkdirSync(stateDir, { recursive: true });

if (!codeServerInstalled()) {
  console.log('Installing code-server (VS Code in the browser) from npm: first use only, 3 to 10 minutes…');
  const why = ensureCodeServer();
  if (why) {
    console.error(`npm start: ${why}`);
    process.exit(1);
  }
}
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = await startCodeServer({
  stateDir,
  installExtension: true,
  port: portArg,
  settings: { 'workbench.colorTheme': 'Dark Modern' },
  onLog: argv.includes('--verbose') ? (l) => console.log(`[code-server] ${l}`) : undefined,
});
const url = `${server.url}?folder=${encodeURIComponent(workspace)}`;
console.log('');
console.log(`Eval Lens in VS Code (code-server): ${url}`);
console.log(`Workspace: ${workspace}`);
console.log('Open the address in a browser; right-click a .csv/.jsonl in the explorer → "Evaluate Prediction File…".');
console.log('Press Ctrl-C to stop.');

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping code-server…');
  await server.stop();
  process.exit(code);
}
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
server.proc.once('exit', (code) => {
  if (!stopping) {
    console.error(`code-server exited (${code}).`);
    process.exit(1);
  }
});
