/**
 * The report webview's entry: routes the host's messages to the report (report.ts), which draws
 * the report model sent and keeps the user's place when the same report is shown again. UI
 * state (tab, chart/table toggles, selects) is kept with setState so a hidden or reloaded panel
 * comes back as it was.
 */
import { isHostMessage, type HostMessage } from '../src/shared/protocol';
import { Report } from './report';
import { answer, vscode } from './vscodeApi';

const report = new Report(document.getElementById('app')!);

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const msg = e.data;
  if (!isHostMessage(msg)) return;
  handle(msg);
});

function handle(msg: HostMessage): void {
  switch (msg.type) {
    case 'show':
      report.show(msg.model, msg.uri, msg.focus);
      break;
    case 'focus':
      report.focus(msg.target);
      break;
    case 'reply':
    case 'rows':
    case 'sliceCandidates':
    case 'slices':
    case 'foundSlices':
    case 'diff':
      answer(msg);
      break;
    case 'error':
      report.error(msg.message);
      break;
  }
}

document.addEventListener('securitypolicyviolation', (e) => {
  vscode.postMessage({
    type: 'cspViolation',
    directive: e.violatedDirective,
    blocked: e.blockedURI || e.sourceFile || 'inline',
  });
});
window.addEventListener('error', (e) =>
  vscode.postMessage({ type: 'log', level: 'error', message: `${e.message} (${e.filename}:${e.lineno})` }),
);
vscode.postMessage({ type: 'ready' });
