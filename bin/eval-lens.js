#!/usr/bin/env node
'use strict';
// The `eval-lens` command: the bundled CLI (built by `npm run build`).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'dist', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('eval-lens: Eval Lens is not built: run npm run build\n');
  process.exit(1);
}
require(cli);
