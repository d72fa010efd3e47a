// The user inspector's data: a user's row from the row query (`user = <id>`) carries the hits,
// the missed relevant items and the item metadata of the `items` table — checked against a direct
// reading of the example's JSONL and items.csv; the inspector's model carries the population values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openInspection } from '../../../src/core/inspect';
import type { RankingRowView } from '../../../src/core/rows/types';
import { evaluateFile } from '../../../src/core/evaluate';
import { userInspectorModel } from '../../../src/shared/userInspector';

const dir = 'examples/ranking-debian-deps';

/** items.csv read the obvious way (the example's cells have no quotes with commas inside… checked). */
function itemsCsv(): Map<string, Record<string, string>> {
  const lines = readFileSync(`${dir}/items.csv`, 'utf8').trim().split('\n');
  const head = lines[0]!.split(',');
  const out = new Map<string, Record<string, string>>();
  for (const l of lines.slice(1)) {
    if (l.includes('"')) continue; // quoted cells: compared through the loader elsewhere
    const c = l.split(',');
    out.set(
      c[0]!,
      Object.fromEntries(
        head
          .slice(1)
          .map((h, j) => [h, c[j + 1]!])
          .filter(([, v]) => v !== ''),
      ),
    );
  }
  return out;
}

test('user rows: hits, missed items and metadata equal a direct count from the JSONL', async () => {
  const insp = await openInspection(`${dir}/cooccurrence.jsonl`, {
    overrides: { bootstrap: { n: 0 } },
    root: process.cwd(),
  });
  const lines = readFileSync(`${dir}/cooccurrence.jsonl`, 'utf8').trim().split('\n');
  const meta = itemsCsv();
  let checkedMeta = 0;
  for (const lineNo of [1, 2, 17, 600, lines.length]) {
    const obj = JSON.parse(lines[lineNo - 1]!) as { user: string; items: string[]; relevant: string[] };
    const page = insp.query({ where: [{ key: 'user', op: '=', value: obj.user }], offset: 0, limit: 5 });
    assert.equal(page.total, 1, obj.user);
    const row = page.rows[0] as RankingRowView;
    assert.equal(row.line, lineNo);
    const top = obj.items.slice(0, 20);
    const rel = new Set(obj.relevant);
    assert.deepEqual(
      row.items.map((i) => i.item),
      top,
    );
    assert.equal(row.items.filter((i) => i.hit).length, top.filter((i) => rel.has(i)).length, `${obj.user}: hits`);
    assert.deepEqual(new Set(row.missed), new Set(obj.relevant.filter((i) => !top.includes(i))));
    for (const it of row.items) {
      const want = meta.get(it.item);
      if (want) {
        assert.deepEqual(it.meta, want, it.item);
        checkedMeta++;
      }
    }
    for (const m of row.missed) if (meta.has(m)) assert.deepEqual(row.missedMeta?.[m], meta.get(m));
  }
  assert.ok(checkedMeta > 50, `${checkedMeta} items' metadata checked`);
});

test("user inspector model: suggestions are the evaluated users, population values are the results' means", async () => {
  const r = await evaluateFile(`${dir}/popularity.jsonl`, { overrides: { bootstrap: { n: 0 } }, root: process.cwd() });
  const m = userInspectorModel(r)!;
  assert.equal(m.totalUsers, r.perItem!.ids!.length);
  assert.deepEqual(m.users, r.perItem!.ids);
  const recall = m.population.find((p) => p.key === 'recall@10')!;
  assert.equal(recall.value, r.metrics['recall@10']!.value);
  const values = r.perItem!.values['recall@10']!;
  assert.ok(Math.abs(values.reduce((a, b) => a + b, 0) / values.length - recall.value!) < 1e-12, 'the mean over users');
  assert.equal(m.coldThreshold, 5);
});
