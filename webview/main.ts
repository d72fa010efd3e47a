/**
 * The report webview's entry: hands the host's messages to the report (`<eval-report>`,
 * report.ts), which holds the panel's state and draws it, and the answers to requests to the
 * request waiting for them (vscodeApi.ts). The report takes the place of the page's "Loading the
 * report…" the first time there is something to show. Also tells the host of a content security
 * policy violation or an uncaught error, for its log.
 */
import { isHostMessage, type HostMessage } from '../src/shared/protocol';
import { reportElement } from './report';
import { answer, vscode } from './vscodeApi';

const app = document.getElementById('app')!;
const report = reportElement();

/** Puts the report in the panel (drawn as it enters) the first time it has something to show. */
function mount(): void {
  if (report.parentNode === app) return;
  app.replaceChildren(report);
  app.setAttribute('aria-busy', 'false');
}

function handle(msg: HostMessage): void {
  switch (msg.type) {
    case 'show':
      report.show(msg.model, msg.uri, msg.focus);
      mount();
      break;
    case 'focus':
      report.focusOn(msg.target);
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
      mount();
      break;
  }
}

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  if (isHostMessage(e.data)) handle(e.data);
});
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
