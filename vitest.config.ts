import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/globalSetup.ts'],
    setupFiles: ['test/helpers/quietWarnings.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // passing tests print nothing: TensorFlow.js advertises its native backend once per process in Node
    onConsoleLog: (log) => !log.includes('looks like you are running TensorFlow.js in Node.js'),
  },
});
