#!/usr/bin/env node
// The `um` command: the command line lives in the core package (uncertainty-metrics/cli); this package brings the
// dependencies it needs (CSV, Parquet, charts) so that one install gives a working command.
import 'uncertainty-metrics/cli/bin';
