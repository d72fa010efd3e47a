// Writes the Parquet test files of test/fixtures/parquet/ from the example CSV rows, with DuckDB
// (npm @duckdb/node-api, a development dependency only: Debian packages no Parquet writer for
// Python — neither python3-pyarrow nor python3-fastparquet exists in Debian 12).
//
//   node scripts/golden/parquet.mjs
//
// Files (the same rows as the CSV; the golden test compares their metrics with the CSV's):
// - digits-logreg-wide.<codec>.parquet: the columns of examples/digits-lt/logreg.csv as written
//   (id, label, pred: INT64; split: string; prob_0…prob_9: DOUBLE), one per compression codec.
// - digits-logreg-list.parquet: id, label, pred, split and `probs` as a list<double> column.
// - digits-logreg-groups.parquet: the list file's rows 14 times over (4,200 rows), in row groups of
//   2,048 rows (DuckDB's smallest), so that reading by row group is exercised: two full groups and one
//   of 104 rows (fewer repeats, and DuckDB writes a single group).
// - iw-logreg.parquet: examples/iw-breast-cancer/logreg.csv (iw-binary), snappy.
// - debian-run.parquet, debian-gt.parquet, debian-train.parquet: examples/ranking-debian-deps as
//   long-format tables: the run's lists of cooccurrence.jsonl as (user, item, rank) rows, its
//   `relevant` items as (user, item, rel = 1) rows, and _train.csv as (user, item) rows; zstd,
//   snappy and gzip. The same evaluation as the JSONL run with the CSV train file.
// - bad-rank.parquet: a 3-row long-format run with an empty (null) rank on data row 2.
// - debian-lists.parquet: the run of cooccurrence.jsonl with one user a row: user, items and
//   relevant as list<varchar> columns, zstd (the JSONL run's metrics).
// - bad-list.parquet: a list-form run whose data row 2 has a null `items` list.
// - debian-items.parquet: examples/ranking-debian-deps/items.csv as text columns (empty cells as
//   null), zstd: the same item metadata as the CSV (the user inspector shows the same rows).
// - items-typed.parquet: item ids as INT64, a DOUBLE, a BOOLEAN and a null (values shown as text).
// - items-dup.parquet, items-noid.parquet, items-list.parquet, items-nocol.parquet: a repeated item
//   id on data row 3, a null id on data row 2, a list cell on data row 1, no item id column.
// - items-empty.parquet: the columns item, name and no rows.
// - bad-prob.parquet: the first 5 rows of the list file, with probs[1] = 1.5 on data row 3 (an
//   error naming "row 3" and the column).
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const out = resolve('test/fixtures/parquet');
mkdirSync(out, { recursive: true });
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const q = (s) => con.run(s);
const lit = (p) => `'${p.replace(/'/g, "''")}'`;

// all_varchar then explicit casts: the types are chosen here, not guessed by the CSV sniffer.
await q(
  `CREATE TABLE digits AS SELECT * FROM read_csv(${lit(resolve('examples/digits-lt/logreg.csv'))}, header = true, all_varchar = true)`,
);
const probs = Array.from({ length: 10 }, (_, c) => `prob_${c}`);
const wide = `SELECT CAST(id AS BIGINT) AS id, CAST(label AS BIGINT) AS label, CAST(pred AS BIGINT) AS pred, split, ${probs.map((p) => `CAST(${p} AS DOUBLE) AS ${p}`).join(', ')} FROM digits`;
for (const codec of ['uncompressed', 'snappy', 'gzip', 'zstd']) {
  await q(
    `COPY (${wide}) TO ${lit(`${out}/digits-logreg-wide.${codec}.parquet`)} (FORMAT parquet, COMPRESSION ${codec})`,
  );
}
const list = `SELECT CAST(id AS BIGINT) AS id, CAST(label AS BIGINT) AS label, CAST(pred AS BIGINT) AS pred, split, [${probs.map((p) => `CAST(${p} AS DOUBLE)`).join(', ')}] AS probs FROM digits`;
await q(`COPY (${list}) TO ${lit(`${out}/digits-logreg-list.parquet`)} (FORMAT parquet, COMPRESSION zstd)`);
await q(
  `COPY (SELECT l.* FROM range(14) r, (${list}) l ORDER BY r.range) TO ${lit(`${out}/digits-logreg-groups.parquet`)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)`,
);

await q(
  `CREATE TABLE iw AS SELECT * FROM read_csv(${lit(resolve('examples/iw-breast-cancer/logreg.csv'))}, header = true, all_varchar = true)`,
);
await q(
  `COPY (SELECT id, CAST(label AS BIGINT) AS label, CAST(score AS DOUBLE) AS score, stratum FROM iw) TO ${lit(`${out}/iw-logreg.parquet`)} (FORMAT parquet, COMPRESSION snappy)`,
);
await q(
  `COPY (SELECT id, label, pred, split, CASE WHEN rn = 3 THEN list_concat([probs[1], 1.5], probs[3:]) ELSE probs END AS probs FROM (SELECT *, row_number() OVER () AS rn FROM (${list} LIMIT 5))) TO ${lit(`${out}/bad-prob.parquet`)} (FORMAT parquet)`,
);
const deb = resolve('examples/ranking-debian-deps');
await q(
  `CREATE TABLE deb AS SELECT * FROM read_json(${lit(`${deb}/cooccurrence.jsonl`)}, format = 'newline_delimited', columns = {user: 'VARCHAR', items: 'VARCHAR[]', relevant: 'VARCHAR[]'})`,
);
await q(
  `COPY (SELECT "user", unnest(items) AS item, unnest(generate_series(1, len(items))) AS rank FROM deb) TO ${lit(`${out}/debian-run.parquet`)} (FORMAT parquet, COMPRESSION zstd)`,
);
await q(
  `COPY (SELECT "user", unnest(relevant) AS item, 1 AS rel FROM deb) TO ${lit(`${out}/debian-gt.parquet`)} (FORMAT parquet, COMPRESSION snappy)`,
);
await q(
  `COPY (SELECT * FROM read_csv(${lit(`${deb}/_train.csv`)}, header = true, all_varchar = true)) TO ${lit(`${out}/debian-train.parquet`)} (FORMAT parquet, COMPRESSION gzip)`,
);
await q(
  `COPY (SELECT * FROM (VALUES ('u1', 'a', 1), ('u1', 'b', NULL), ('u2', 'a', 1)) t("user", item, rank)) TO ${lit(`${out}/bad-rank.parquet`)} (FORMAT parquet)`,
);
await q(
  `COPY (SELECT * FROM read_csv(${lit(`${deb}/items.csv`)}, header = true, all_varchar = true)) TO ${lit(`${out}/debian-items.parquet`)} (FORMAT parquet, COMPRESSION zstd)`,
);
await q(
  `COPY (SELECT * FROM (VALUES (CAST(7 AS BIGINT), 2.5, true, 'Zed'), (CAST(8 AS BIGINT), NULL, false, NULL)) t(item, price, "new", brand)) TO ${lit(`${out}/items-typed.parquet`)} (FORMAT parquet)`,
);
await q(
  `COPY (SELECT * FROM (VALUES ('a', 'A'), ('b', 'B'), ('a', 'C')) t(item, name)) TO ${lit(`${out}/items-dup.parquet`)} (FORMAT parquet)`,
);
await q(
  `COPY (SELECT * FROM (VALUES ('a', 'A'), (NULL, 'B')) t(item, name)) TO ${lit(`${out}/items-noid.parquet`)} (FORMAT parquet)`,
);
await q(
  `COPY (SELECT * FROM (VALUES ('a', ['x', 'y'])) t(item, tags)) TO ${lit(`${out}/items-list.parquet`)} (FORMAT parquet)`,
);
await q(
  `COPY (SELECT * FROM (VALUES ('a', 'A')) t(sku, name)) TO ${lit(`${out}/items-nocol.parquet`)} (FORMAT parquet)`,
);
await q(
  `COPY (SELECT * FROM (VALUES ('a', 'A')) t(item, name) LIMIT 0) TO ${lit(`${out}/items-empty.parquet`)} (FORMAT parquet)`,
);
await q(
  `COPY (SELECT "user", items, relevant FROM deb) TO ${lit(`${out}/debian-lists.parquet`)} (FORMAT parquet, COMPRESSION zstd)`,
);
await q(
  `COPY (SELECT * FROM (VALUES ('u1', ['a', 'b'], ['a']), ('u2', NULL, ['b'])) t("user", items, relevant)) TO ${lit(`${out}/bad-list.parquet`)} (FORMAT parquet)`,
);
console.log(`wrote Parquet files to ${out}`);
