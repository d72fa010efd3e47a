/**
 * The lines of `code` that the project's lint refuses with its `no-restricted-syntax` rules (the
 * casts of results' tables and curves), linted as if it were the file `filePath`: the tests that
 * plant a reader check which lines are stopped.
 */
import { ESLint } from 'eslint';

export async function restrictedLines(code: string, filePath: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [r] = await eslint.lintText(code, { filePath });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => code.split('\n')[m.line - 1]!);
}
