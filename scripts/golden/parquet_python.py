"""Parquet files written by the Python writers people use, for the golden test of the reader.

    python3 scripts/golden/parquet_python.py      # needs pandas, pyarrow and fastparquet

Debian packages neither pyarrow nor fastparquet; install them with pip into a virtual environment
(`python3 -m venv v --system-site-packages && v/bin/pip install pyarrow fastparquet`). The files
are checked in, so the tests need none of this. Each holds the rows of an example file, so the
golden test (test/unit/e2e/binaryInputs.test.ts) can require the metrics of the CSV/JSONL original:

- pandas-wide.pyarrow.<codec>.parquet: examples/digits-lt/logreg.csv through
  ``DataFrame.to_parquet(engine="pyarrow", compression=codec)``, with pandas' index column
  (``__index_level_0__``) and its pandas metadata, for snappy, zstd and gzip.
- pandas-wide.fastparquet.<codec>.parquet: the same frame through ``engine="fastparquet"``
  (its own writer: plain encoding, its own metadata), for snappy and gzip.
- pyarrow-list.parquet: the probabilities as one ``list<double>`` column ``probs``, written by
  ``pyarrow.parquet.write_table`` with data page version 2.0 and dictionary encoding.
- pyarrow-spark.parquet: the same table written with ``flavor="spark"`` and the legacy
  (non-compliant) nested list layout, the compatibility options pyarrow offers for Spark readers.
- pyarrow-lists.parquet: examples/ranking-debian-deps/cooccurrence.jsonl with one user a row
  (``user``, ``items``, ``relevant`` as ``list<string>``), zstd.
"""

import json
import os

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
OUT = os.path.join(ROOT, "test", "fixtures", "parquet", "python")
os.makedirs(OUT, exist_ok=True)

df = pd.read_csv(os.path.join(ROOT, "examples", "digits-lt", "logreg.csv"))
probs = [c for c in df.columns if c.startswith("prob_")]

for codec in ["snappy", "zstd", "gzip"]:
    df.to_parquet(os.path.join(OUT, f"pandas-wide.pyarrow.{codec}.parquet"), engine="pyarrow", compression=codec, index=True)
for codec in ["snappy", "gzip"]:
    df.to_parquet(os.path.join(OUT, f"pandas-wide.fastparquet.{codec}.parquet"), engine="fastparquet", compression=codec)

table = pa.table(
    {
        "id": pa.array(df["id"], pa.int64()),
        "label": pa.array(df["label"], pa.int64()),
        "pred": pa.array(df["pred"], pa.int64()),
        "split": pa.array(df["split"], pa.string()),
        "probs": pa.array(df[probs].to_numpy().tolist(), pa.list_(pa.float64())),
    }
)
pq.write_table(table, os.path.join(OUT, "pyarrow-list.parquet"), data_page_version="2.0", use_dictionary=True)
pq.write_table(table, os.path.join(OUT, "pyarrow-spark.parquet"), flavor="spark", use_compliant_nested_type=False)

rows = [json.loads(line) for line in open(os.path.join(ROOT, "examples", "ranking-debian-deps", "cooccurrence.jsonl"), encoding="utf-8")]
lists = pa.table(
    {
        "user": pa.array([r["user"] for r in rows], pa.string()),
        "items": pa.array([r["items"] for r in rows], pa.list_(pa.string())),
        "relevant": pa.array([r["relevant"] for r in rows], pa.list_(pa.string())),
    }
)
pq.write_table(lists, os.path.join(OUT, "pyarrow-lists.parquet"), compression="zstd")
print(f"wrote {len(os.listdir(OUT))} files to {os.path.relpath(OUT, ROOT)}")
