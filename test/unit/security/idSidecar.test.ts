// The id list beside a `.npy` embedding (`<name>.ids.txt`, `<name>.ids.json`, …) is a path that a
// cloned repository chooses, like the config paths: a symbolic link out of the workspace is refused
// before the file is opened, so none of the linked file's content (or its line count) reaches a
// message.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalLensError } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { npy } from '../helpers/factors';

const base = mkdtempSync(join(tmpdir(), 'eval-lens-idsidecar-'));
after(() => rmSync(base, { recursive: true, force: true }));
const ws = join(base, 'ws');
const outside = join(base, 'outside');
mkdirSync(ws, { recursive: true });
mkdirSync(outside, { recursive: true });
const SECRET = 'root:x:0:0:SECRET';
const realOutside = realpathSync(outside);
// Not a valid JSON array and three lines where the .npy has two rows: a read would quote or count it.
writeFileSync(join(outside, 'passwd'), `${SECRET}\ndaemon:x:1:1\nbin:x:2:2\n`);
writeFileSync(join(ws, 'run.jsonl'), '{"user":"u1","items":["a","b"],"relevant":["a"]}\n');
writeFileSync(
  join(ws, 'emb.npy'),
  npy([
    [1, 0],
    [0, 1],
  ]),
);
writeFileSync(
  join(ws, 'eval-lens.json'),
  JSON.stringify({ task: 'ranking', itemEmbeddings: 'emb.npy', bootstrap: { n: 0 } }),
);

for (const name of ['emb.ids.json', 'emb.ids.txt']) {
  test(`an id list ${name} that links out of the workspace is refused, its content never read`, async () => {
    const link = join(ws, name);
    symlinkSync(join(outside, 'passwd'), link);
    try {
      await assert.rejects(evaluateFile(join(ws, 'run.jsonl'), { root: ws }), (e: unknown) => {
        assert.ok(e instanceof EvalLensError, String(e));
        assert.equal(e.code, 'config-path', e.message);
        assert.equal(
          e.message,
          `emb.npy: the id list ${name} beside it is a symbolic link to ${join(realOutside, 'passwd')}, outside the workspace ${ws}; it was not read. Copy the file into the workspace.`,
        );
        assert.ok(!e.message.includes('root:x'), e.message);
        assert.doesNotMatch(e.message, /expected 2 ids|got 3/);
        return true;
      });
    } finally {
      rmSync(link);
    }
  });
}

test('an id list inside the workspace (also through a link that stays inside) is read', async () => {
  writeFileSync(join(ws, 'ids-real.txt'), 'a\nb\n');
  symlinkSync(join(ws, 'ids-real.txt'), join(ws, 'emb.ids.txt'));
  try {
    const r = await evaluateFile(join(ws, 'run.jsonl'), { root: ws });
    assert.equal(r.source.columns?.itemEmbeddings, 'emb.npy (ids: emb.ids.txt)');
  } finally {
    rmSync(join(ws, 'emb.ids.txt'));
  }
});
