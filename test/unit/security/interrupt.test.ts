// The results file is written to a temporary file and renamed into place; Ctrl-C (SIGINT) while
// the temporary file is being written removes it and exits 130. An --out path below a file is an
// input error, not an unexpected one.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-interrupt-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('Ctrl-C during the write of the results leaves no *.tmp file and exits 130', async () => {
  // The child writes through writeAtomically with a write step that stops half-way (the temporary
  // file exists, partly written) and says so; then it gets SIGINT.
  const script = `
    import files from ${JSON.stringify(join(ROOT, 'src/cli/files.ts'))};
    const { writeAtomically } = files;
    import { writeFile } from 'node:fs/promises';
    await writeAtomically(${JSON.stringify(join(dir, 'out.eval.json'))}, '{}', 'the results', async (tmp, text) => {
      await writeFile(tmp, text.slice(0, 1));
      process.stdout.write('writing\\n');
      await new Promise(() => setInterval(() => undefined, 1000)); // a write in progress keeps the process alive
    });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (b) => (err += b));
  const started = await new Promise<boolean>((resolve) => {
    child.stdout.on('data', (b) => String(b).includes('writing') && resolve(true));
    child.on('close', () => resolve(false));
  });
  assert.ok(started, err);
  assert.ok(
    readdirSync(dir).some((f) => f.endsWith('.tmp')),
    'the temporary file exists mid-write',
  );
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(code, 130, err);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  );
  assert.deepEqual(readdirSync(dir), [], 'nothing written');
});

test('Ctrl-C while the temporary file is being opened: the file the open creates is removed, exit 130', async () => {
  // The open step is replaced by one that is still on its way when SIGINT comes, as a thread-pool
  // open is: it creates the file 100 ms after the signal, or as the process ends, whichever comes
  // first (an open already in the kernel completes either way). A handler that removed the file
  // at once and exited would leave it behind.
  const out = join(dir, 'opening.eval.json');
  const script = `
    import files from ${JSON.stringify(join(ROOT, 'src/cli/files.ts'))};
    const { writeAtomically } = files;
    import { writeFileSync } from 'node:fs';
    import { open } from 'node:fs/promises';
    await writeAtomically(${JSON.stringify(out)}, '{}', 'the results', undefined, (tmp) => {
      let created = false;
      process.once('exit', () => created || writeFileSync(tmp, ''));
      setInterval(() => undefined, 1000); // an open on its way keeps the process alive
      process.stdout.write('opening\\n');
      return new Promise((resolve, reject) =>
        process.once('SIGINT', () =>
          setTimeout(() => {
            created = true;
            open(tmp, 'wx').then(resolve, reject);
          }, 100),
        ),
      );
    });
    process.stdout.write('not interrupted\\n');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let stdout = '';
  child.stderr.on('data', (b) => (err += b));
  const opening = await new Promise<boolean>((resolve) => {
    child.stdout.on('data', (b) => {
      stdout += b;
      if (stdout.includes('opening')) resolve(true);
    });
    child.on('close', () => resolve(false));
  });
  assert.ok(opening, `the open step was not reached: ${stdout} ${err}`);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('opening.')),
    [],
    'nothing exists while the open is on its way',
  );
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(code, 130, `${stdout} ${err}`);
  assert.doesNotMatch(stdout, /not interrupted/);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('opening.')),
    [],
    'no temporary file and no results file',
  );
});

test('--out below a file (not a folder) is an input error naming the path', () => {
  writeFileSync(join(dir, 'p.csv'), 'label,pred\na,a\nb,b\n');
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src/cli/main.ts'),
      'evaluate',
      join(dir, 'p.csv'),
      '--bootstrap-n',
      '0',
      '--out',
      join(dir, 'p.csv', 'x.eval.json'),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.notEqual(r.status, 0);
  assert.doesNotMatch(r.stderr, /bug/);
  assert.match(r.stderr, /p\.csv.*(is a file|not a folder)/);
});
