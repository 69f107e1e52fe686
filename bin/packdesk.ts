#!/usr/bin/env node
import { endQuietlyWhenOutputCloses } from '../src/cli/run.js';
import { runPackdesk } from './program.js';

endQuietlyWhenOutputCloses();
process.exitCode = await runPackdesk(process.argv);
