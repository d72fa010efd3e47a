/// <reference lib="dom" />
// The webview's entry (webview/main.ts) in a DOM (happy-dom), in the page the host writes (a
// `main#app` saying it is loading): it says `ready`, puts the report (<eval-report>) in the panel
// the first time the host shows one — the panel no longer busy — and hands it the host's messages
// (a show of the classification report of examples/digits-lt/logreg.csv, its title drawn; an
// error shown instead of it; a malformed message ignored).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportModel } from '../../../src/shared/model';
import { logregReport } from './classificationExample';
import { fakeIntersectionObservers, fakeResizeObservers, installDom, until, type TestDom } from './happyDom';

let dom: TestDom;
let logreg: ReportModel;

before(async () => {
  logreg = (await logregReport()).model;
  dom = installDom();
  fakeResizeObservers();
  fakeIntersectionObservers();
  (HTMLCanvasElement.prototype as unknown as { getContext(): unknown }).getContext = () => ({ fillStyle: '' });
  // The page as the host writes it (src/extension/report/html.ts).
  document.body.innerHTML = '<main id="app" aria-busy="true"><p class="loading">Loading the report…</p></main>';
  await import('../../../webview/main');
});
after(() => dom.close());

const app = (): HTMLElement => document.getElementById('app')!;
const post = (data: unknown): void => void window.dispatchEvent(new MessageEvent('message', { data }));

test('says ready, then draws the report the host shows in the panel, and shows an error instead of it', async () => {
  assert.deepEqual(dom.posted, [{ type: 'ready' }]);
  assert.equal(app().querySelector('.loading')!.textContent, 'Loading the report…');

  // Not a message of the host's protocol: ignored.
  post({ type: 'show', uri: 'file:///x.eval.json' });
  assert.equal(app().querySelector('eval-report'), null);

  post({ type: 'show', model: logreg, uri: 'file:///work/examples/digits-lt/logreg.eval.json' });
  const report = app().querySelector('eval-report')!;
  assert.ok(report, 'the report in the panel');
  assert.equal(app().childElementCount, 1, 'in place of the loading text');
  assert.equal(app().getAttribute('aria-busy'), 'false');
  assert.equal(report.querySelector('header.report-header h1')!.textContent, logreg.header.title);
  await until(() => report.state.saved.tab === logreg.tabs[0]!.id, 'the first tab selected');

  post({ type: 'focus', target: 'calibration' });
  assert.equal(report.state.saved.tab, 'calibration');

  post({ type: 'error', message: 'The results file could not be read.' });
  assert.equal(app().querySelector('eval-report'), report, 'the same report element');
  assert.equal(report.childElementCount, 1);
  assert.equal(report.querySelector('.error[role="alert"]')!.textContent, 'The results file could not be read.');
});
