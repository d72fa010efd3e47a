#!/usr/bin/env node
'use strict';
// The `eval-lens` command: the bundled CLI (built by `npm run build`).
require('../dist/cli.js');
