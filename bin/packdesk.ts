#!/usr/bin/env node
import { runPackdesk } from './program.js';

process.exitCode = await runPackdesk(process.argv);
