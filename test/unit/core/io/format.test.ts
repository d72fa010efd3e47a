/**
 * The message for a file that is not a prediction file names every accepted extension, `.npy`
 * (a factor model's user factors) included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat } from '../../../../src/core/io/format';

test('an unsupported extension lists every accepted one, .npy included', () => {
  assert.throws(
    () => detectFormat('notes/README.md'),
    (e: Error) => {
      assert.equal(
        e.message,
        'Cannot read README.md: unsupported file extension .md. Accepted: .csv, .tsv, .tab, .jsonl, .ndjson, .json, .parquet, .pq, .npz, and .npy (the user factors of a factor model, with an eval-lens.json naming them).',
      );
      return true;
    },
  );
});
