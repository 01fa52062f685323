import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/globalSetup.ts'],
    setupFiles: ['test/helpers/quietWarnings.ts', 'test/helpers/numberArrays.ts', 'test/helpers/silentTests.ts'],
    // every core runs test files (vitest's default leaves one to its own process, which is mostly idle: on 2 cores
    // that ran the files one at a time)
    maxWorkers: availableParallelism(),
    // the files of a worker share its module cache: the library, DuckDB, Vega and TensorFlow.js load once per worker,
    // not once per file (about half a second each). A test that changes a global (warning handler, kernel backend,
    // working directory) restores it; the setup files reset the warning handlers before every file.
    isolate: false,
    // V8's garbage collector on the worker's own thread: with both cores running test files, its parallel helper
    // threads only took CPU from the other worker (interleaved with the default, npm test 3 pairs: medians 87.7 vs
    // 89.8 s wall, 168.9 vs 171.0 s CPU). A young generation of 64 MiB semi-spaces (V8's default grows with the heap
    // limit: 16 MiB here, less where the limit is under 2 GiB; up to 3 × 48 MiB more heap per worker): the tests allocate
    // many short-lived arrays, and fewer scavenges promote fewer of them (vitest run, 5 runs each, interleaved: medians
    // 81.1 s wall and 151.6 s CPU with 64, 82.8 and 156.8 with the default; 128, and 16 given explicitly, were slower)
    execArgv: ['--single-threaded-gc', '--max-semi-space-size=64'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // passing tests print nothing: TensorFlow.js advertises its native backend once per process in Node
    onConsoleLog: (log) => !log.includes('looks like you are running TensorFlow.js in Node.js'),
    // transformed test and source modules are kept on disk (node_modules/.experimental-vitest-cache, keyed by each
    // file's content and the configuration): a rerun skips most of the transform time (measured: transform 12.8 s →
    // 2.1 s over test/math, test/presets and test/conformance). A fresh clone (CI) fills it on its first run.
    experimental: { fsModuleCache: true },
  },
});
