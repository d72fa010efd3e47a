// TREC run ties are broken as trec_eval does: docno in descending strcmp order, i.e. the byte order
// of the UTF-8 docno. JavaScript's string comparison uses UTF-16 code units, which differs for
// characters above U+FFFF against those in U+E000…U+FFFF.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareUtf8 } from '../../../src/core/io/ranking/utf8Order';
import { evaluateFile } from '../../../src/core/evaluate';

const FULLWIDTH_A = '\uff21'; // UTF-8 EF BC A1
const GRIN = '\u{1f600}'; // UTF-8 F0 9F 98 80 (UTF-16 D83D DE00)

test('compareUtf8 orders as the UTF-8 bytes (Buffer.compare)', () => {
  const ids = ['a', 'b', 'é', FULLWIDTH_A, GRIN, `x${GRIN}`, `x${FULLWIDTH_A}`, '\ud7ff', '\ue000', '', 'ab'];
  for (const x of ids) {
    for (const y of ids) {
      assert.equal(
        Math.sign(compareUtf8(x, y)),
        Math.sign(Buffer.compare(Buffer.from(x), Buffer.from(y))),
        `${JSON.stringify(x)} vs ${JSON.stringify(y)}`,
      );
    }
  }
});

test('a TREC tie between U+FF21 and U+1F600: the emoji (larger UTF-8 bytes) ranks first', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-trec-'));
  writeFileSync(join(dir, 'run.trec'), `q1 Q0 ${FULLWIDTH_A} 1 1.0 t\nq1 Q0 ${GRIN} 2 1.0 t\n`);
  writeFileSync(join(dir, 'qrels.txt'), `q1 0 ${GRIN} 1\n`);
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({ task: 'ranking', relevant: 'qrels.txt', k: [1], bootstrap: { n: 0 } }),
  );
  const r = await evaluateFile(join(dir, 'run.trec'));
  assert.equal(r.metrics.mrr!.value, 1);
});
