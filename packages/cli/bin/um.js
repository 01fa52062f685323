#!/usr/bin/env node
// The `um` command: the core package's command line (uncertainty-metrics/cli) bundled into a few files (dist/, built
// by tsup), so that Node starts it without resolving the core's ~310 modules one by one; this package brings the
// dependencies it needs (CSV, Parquet, charts) so that one install gives a working command.
import '../dist/um.js';
