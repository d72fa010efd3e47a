// Types of codeServer.mjs for the TypeScript UI tests (test/ui).
import type { ChildProcess } from 'node:child_process';
import type { BrowserContext } from 'playwright-core';

export const root: string;
export const chromiumPath: string;
export const CHROMIUM_ARGS: string[];
export const QUIET_SETTINGS: Record<string, unknown>;

export interface CodeServer {
  proc: ChildProcess;
  port: number;
  url: string;
  dirs: { userData: string; extensions: string; xdgConfig: string; xdgData: string; xdgCache: string };
  settingsFile: string;
  settings: Record<string, unknown>;
  stopped: boolean;
  stop(): Promise<void>;
}

export interface StartOptions {
  settings?: Record<string, unknown>;
  installExtension?: boolean;
  smokeTestDriver?: boolean;
  env?: Record<string, string>;
  port?: number;
  onLog?: (line: string) => void;
  stateDir?: string;
}

export function codeServerInstalled(): boolean;
export function ensureCodeServer(): string | null;
export function chromiumMissing(): string | null;
export function freePort(): Promise<number>;
export function tempDir(label: string): string;
export function copyExamples(into?: string): string;
export function startCodeServer(o?: StartOptions): Promise<CodeServer>;
export function updateSettings(server: CodeServer, patch: Record<string, unknown>): void;
export function stopServer(server: CodeServer): Promise<void>;
export function removeTempDirs(): void;
export function launchChromium(o?: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' }): Promise<BrowserContext>;
export function workbenchUrl(server: CodeServer, folder: string, o?: { extensionDevelopmentPath?: string; extensionTestsPath?: string }): string;
export function sleep(ms: number): Promise<void>;
