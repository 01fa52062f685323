#!/usr/bin/env node
import { main } from './main.js';

// `um … | head` closes the pipe early: stop quietly instead of crashing on EPIPE
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
