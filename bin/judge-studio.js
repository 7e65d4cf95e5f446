#!/usr/bin/env node
// The npm package's entry: the bundled CLI (built by `npm run build`; `npm pack` builds it minified).
require('../dist/cli.js').runCli();
