/**
 * The report webview's HTML shell: a strict CSP (`default-src 'none'`, the one script by nonce,
 * styles and fonts only from the extension's own resources), the stylesheet and the bundle. No
 * data is interpolated here; it arrives by `postMessage` after the webview says `ready`.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function nonce(): string {
  return randomBytes(18).toString('base64url');
}

export function contentSecurityPolicy(cspSource: string, scriptNonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${scriptNonce}'`,
  ].join('; ');
}

export function reportHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const n = nonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'report.css'));
  const explorerStyle = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'explorer.css'));
  const inspectStyle = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'inspect.css'));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(webview.cspSource, n)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<link rel="stylesheet" href="${explorerStyle}">
<link rel="stylesheet" href="${inspectStyle}">
<title>Eval Lens report</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="loading">Loading the report…</p></main>
<script nonce="${n}" src="${script}"></script>
</body>
</html>`;
}
