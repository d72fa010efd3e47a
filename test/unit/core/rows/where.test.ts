/** The filter language: terms, quoting, `and`, and syntax errors with their positions. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatWhere, parseWhere, WhereSyntaxError } from '../../../../src/core/rows/where';

test('terms with every operator, bare and quoted values, keys with @ . _ -', () => {
  assert.deepEqual(parseWhere('recall@10<0.1'), [{ key: 'recall@10', op: '<', value: '0.1' }]);
  assert.deepEqual(parseWhere('acc_group.head = 1 AND x-y>=2 and a<=b and c>d and e!=f and g==h'), [
    { key: 'acc_group.head', op: '=', value: '1' },
    { key: 'x-y', op: '>=', value: '2' },
    { key: 'a', op: '<=', value: 'b' },
    { key: 'c', op: '>', value: 'd' },
    { key: 'e', op: '!=', value: 'f' },
    { key: 'g', op: '=', value: 'h' },
  ]);
  assert.deepEqual(parseWhere(`city = "São Paulo, BR" and name='it\\'s' and q="a\\"b\\\\c\\n"`), [
    { key: 'city', op: '=', value: 'São Paulo, BR' },
    { key: 'name', op: '=', value: "it's" },
    { key: 'q', op: '=', value: 'a"b\\c\n' },
  ]);
  assert.deepEqual(parseWhere('"my col" = 3'), [{ key: 'my col', op: '=', value: '3' }]);
  assert.deepEqual(parseWhere('label=and'), [{ key: 'label', op: '=', value: 'and' }]);
  assert.deepEqual(parseWhere('   '), []);
  assert.deepEqual(parseWhere('confidence>-0.5'), [{ key: 'confidence', op: '>', value: '-0.5' }]);
});

function errorOf(expr: string): WhereSyntaxError {
  try {
    parseWhere(expr);
  } catch (e) {
    assert.ok(e instanceof WhereSyntaxError, String(e));
    return e;
  }
  assert.fail(`expected a syntax error for ${expr}`);
}

test('syntax errors say what was expected at which character (0-based position, 1-based column) with a caret', () => {
  const cases: [string, number, RegExp][] = [
    ['label', 5, /expected an operator/],
    ['label cat', 6, /expected an operator/],
    ['=cat', 0, /expected a key/],
    ['label=', 6, /expected a value/],
    ['label=cat or pred=dog', 10, /expected "and" or the end/],
    ['label=cat and', 13, /expected a key/],
    ['label=cat andpred=dog', 10, /expected "and"/],
    ['label="cat', 10, /expected a closing " for the quote opened at character 7/],
    ['a=1 and =2', 8, /expected a key/],
    ['a=1 b=2', 4, /expected "and"/],
    ['a<>1', 2, /expected a value/],
  ];
  for (const [expr, pos, what] of cases) {
    const e = errorOf(expr);
    assert.equal(e.position, pos, expr);
    assert.equal(e.column, pos + 1, expr);
    assert.match(e.message, what, expr);
    assert.match(e.message, new RegExp(`at character ${pos + 1} \\(1-based\\)`), expr);
    const lines = e.message.split('\n');
    assert.equal(lines[1], `  ${expr}`);
    assert.equal(lines[2].indexOf('^'), 2 + pos, `caret under character ${pos + 1} of ${expr}`);
  }
});

test('formatWhere writes terms that parse back to the same terms', () => {
  const terms = [
    { key: 'label', op: '=' as const, value: 'cat' },
    { key: 'city', op: '!=' as const, value: 'São Paulo, "BR"' },
    { key: 'my col', op: '>=' as const, value: '0.5' },
    { key: 'x', op: '=' as const, value: 'and' },
    { key: 'y', op: '=' as const, value: '' },
    { key: 'z', op: '<' as const, value: 'a\\b\nc' },
  ];
  const text = formatWhere(terms);
  assert.equal(text.split(' and ')[0], 'label = cat');
  assert.deepEqual(parseWhere(text), terms);
});
