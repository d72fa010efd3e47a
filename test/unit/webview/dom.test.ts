/// <reference lib="dom" />
// The webview's element builder in a DOM (happy-dom): text from the files goes in as text nodes,
// never parsed as HTML; attributes true/false/undefined as the builder documents.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { installDom, type TestDom } from './happyDom';

let dom: TestDom;
let el: typeof import('../../../webview/dom').el;

before(async () => {
  dom = installDom();
  ({ el } = await import('../../../webview/dom'));
});
after(() => dom.close());

test('el: a child string is a text node, markup in it stays text', () => {
  const p = el('p', { class: 'note' }, '<b>bold</b> & ', el('span', {}, 'x'), null, false, undefined);
  assert.equal(p.childNodes.length, 2);
  assert.equal(p.childNodes[0]!.nodeType, 3);
  assert.equal(p.textContent, '<b>bold</b> & x');
  assert.equal(p.querySelector('b'), null);
  assert.equal(p.className, 'note');
});

test('el: true sets an empty attribute, false and undefined leave it out', () => {
  const b = el('button', { disabled: true, hidden: false, title: undefined, 'data-x': 'y' });
  assert.equal(b.getAttribute('disabled'), '');
  assert.equal(b.hasAttribute('hidden'), false);
  assert.equal(b.hasAttribute('title'), false);
  assert.equal(b.dataset.x, 'y');
});
