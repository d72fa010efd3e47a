// Writes the Parquet test files of test/fixtures/parquet/ from the example CSV rows, with DuckDB
// (npm @duckdb/node-api, a development dependency only: Debian packages no Parquet writer for
// Python — neither python3-pyarrow nor python3-fastparquet exists in Debian 12).
//
//   node scripts/golden/parquet.mjs
//
// Files (the same rows as the CSV; the golden test compares their metrics with the CSV's):
// - digits-logreg-wide.<codec>.parquet: the columns of examples/digits-lt/logreg.csv as written
//   (id, label, pred: INT64; split: string; prob_0…prob_9: DOUBLE), one per compression codec.
// - digits-logreg-list.parquet: id, label, pred, split and `probs` as a list<double> column, in row
//   groups of 64 rows (several row groups, the last one short).
// - iw-logreg.parquet: examples/iw-breast-cancer/logreg.csv (iw-binary), snappy.
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
await q(`CREATE TABLE digits AS SELECT * FROM read_csv(${lit(resolve('examples/digits-lt/logreg.csv'))}, header = true, all_varchar = true)`);
const probs = Array.from({ length: 10 }, (_, c) => `prob_${c}`);
const wide = `SELECT CAST(id AS BIGINT) AS id, CAST(label AS BIGINT) AS label, CAST(pred AS BIGINT) AS pred, split, ${probs.map((p) => `CAST(${p} AS DOUBLE) AS ${p}`).join(', ')} FROM digits`;
for (const codec of ['uncompressed', 'snappy', 'gzip', 'zstd']) {
  await q(`COPY (${wide}) TO ${lit(`${out}/digits-logreg-wide.${codec}.parquet`)} (FORMAT parquet, COMPRESSION ${codec})`);
}
const list = `SELECT CAST(id AS BIGINT) AS id, CAST(label AS BIGINT) AS label, CAST(pred AS BIGINT) AS pred, split, [${probs.map((p) => `CAST(${p} AS DOUBLE)`).join(', ')}] AS probs FROM digits`;
await q(`COPY (${list}) TO ${lit(`${out}/digits-logreg-list.parquet`)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 64)`);

await q(`CREATE TABLE iw AS SELECT * FROM read_csv(${lit(resolve('examples/iw-breast-cancer/logreg.csv'))}, header = true, all_varchar = true)`);
await q(`COPY (SELECT id, CAST(label AS BIGINT) AS label, CAST(score AS DOUBLE) AS score, stratum FROM iw) TO ${lit(`${out}/iw-logreg.parquet`)} (FORMAT parquet, COMPRESSION snappy)`);
console.log(`wrote Parquet files to ${out}`);
