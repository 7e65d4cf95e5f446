#!/usr/bin/env node
// The published entry: the bundled CLI (built by `npm run build`, or by `prepare` on install).
require('../dist/cli.js').runCli();
