// Time to the first visible report in the extension, for the 200,000 × 20 predictions CSV (38 MB)
// with 1,000 bootstrap resamples. It is measured inside a real VS Code by the integration test
// test/integration/first-report-time.test.ts (`npm run test:vscode`), which writes
// test-artifacts/first-report.json; this bench prints that record (a bench cannot drive a VS Code
// window) and says how old it is.
import { existsSync, readFileSync } from 'node:fs';

const file = 'test-artifacts/first-report.json';
if (!existsSync(file)) {
  console.log(`time to first report: not recorded yet — run \`npm run test:vscode\` (it writes ${file})`);
} else {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const ageMin = Math.round((Date.now() - Date.parse(r.recordedAt)) / 60000);
  console.log(
    `time to first report (extension, ${r.file.rows} × ${r.file.classes}, ${(r.file.bytes / 1e6).toFixed(1)} MB, ` +
      `${r.bootstrapResamples} resamples): ${(r.firstReportMs / 1000).toFixed(2)} s; final results ${(r.finalMs / 1000).toFixed(2)} s`,
  );
  for (const s of r.stages) console.log(`  ${s.label}: ${(s.ms / 1000).toFixed(2)} s`);
  console.log(`  (recorded by the integration suite ${ageMin} min ago, ${r.recordedAt})`);
}
