#!/usr/bin/env node
// Runs the TypeScript operator command through tsx: Node 20 cannot run TypeScript by itself.
import { register } from 'tsx/esm/api';

register();
await import('./cardsvc.ts');
