/**
 * The text after a command's options in its help: its notes, if any, then its example command
 * lines under "Examples:" ("Example:" for one), each written as typed (`eval-lens …`), indented by
 * two spaces here. Every command's help ends so.
 */
export function helpTail(examples: readonly string[], notes: readonly string[] = []): string {
  const head = notes.length > 0 ? ['', ...notes] : [];
  return [...head, '', examples.length === 1 ? 'Example:' : 'Examples:', ...examples.map((e) => `  ${e}`)].join('\n');
}
