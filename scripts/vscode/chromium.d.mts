// Types of chromium.mjs for its unit test.
export const INSTALL_COMMAND: string;
export type ChromiumPlan =
  { action: 'none' } | { action: 'install'; command: string } | { action: 'message'; message: string };
export function chromiumPlan(o: {
  isRoot: boolean;
  hasChromium: boolean;
  hasApt: boolean;
  custom?: boolean;
  path?: string;
}): ChromiumPlan;
export function ensureChromium(): string | null;
