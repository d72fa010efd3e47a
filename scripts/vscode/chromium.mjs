// Debian's Chromium for the integration and UI stages of `npm test`: installed when it is missing
// and the run may install Debian packages (root, apt-get present), as install-code-server.sh does
// for its build packages; otherwise the exact command to run is printed. `chromiumPlan` is the
// decision alone (a unit test covers it); `ensureChromium` acts on it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from './codeServer.mjs';

export const INSTALL_COMMAND = 'apt-get update && apt-get install -y chromium';

/**
 * What to do about Chromium: `none` (present), `install` (run INSTALL_COMMAND), or `message` (say
 * what to run). `custom`: the path comes from EVAL_LENS_CHROMIUM (never replaced by an install).
 */
export function chromiumPlan({ isRoot, hasChromium, hasApt, custom = false, path = '/usr/bin/chromium' }) {
  if (hasChromium) return { action: 'none' };
  if (custom)
    return {
      action: 'message',
      message: `EVAL_LENS_CHROMIUM names ${path}, which does not exist: point it at a Chromium binary, or unset it to use Debian's (${INSTALL_COMMAND}).`,
    };
  if (isRoot && hasApt) return { action: 'install', command: INSTALL_COMMAND };
  if (hasApt)
    return {
      action: 'message',
      message: `Chromium is missing (Debian package "chromium"). Run as root: sudo sh -c '${INSTALL_COMMAND}' — then npm test again (or set EVAL_LENS_CHROMIUM to another Chromium).`,
    };
  return {
    action: 'message',
    message: `Chromium is missing and this system has no apt-get: install Chromium, then run EVAL_LENS_CHROMIUM=/path/to/chromium npm test.`,
  };
}

/** Installs Chromium when missing and allowed; null when it is there afterwards, else the reason. */
export function ensureChromium() {
  const plan = chromiumPlan({
    isRoot: process.getuid?.() === 0,
    hasChromium: existsSync(chromiumPath),
    hasApt: spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0,
    custom: process.env.EVAL_LENS_CHROMIUM !== undefined,
    path: chromiumPath,
  });
  if (plan.action === 'none') return null;
  if (plan.action === 'message') {
    console.log(plan.message);
    return plan.message;
  }
  console.log(`Installing Debian's Chromium for the VS Code tests (first run only): ${plan.command}`);
  const r = spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium >/dev/null'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.status === 0 && existsSync(chromiumPath)) return null;
  const why = `installing Chromium failed (${plan.command}: exit ${r.status ?? r.signal})`;
  console.log(why);
  return why;
}
