// The one Go builder (lib/go-tool.ts) behind the Temporal CLI and the Temporal server: a warm cache is used as it
// is (no Go needed), a cold one without Go says so, and the install names every package at its pinned version.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ensureGoTool, goInstallArgs, goToolBinary, goToolDir, type GoTool } from '../../lib/go-tool.ts';
import { TEMPORAL_CLI } from '../../lib/temporal-cli.ts';
import { TEMPORAL_SERVER } from '../../lib/temporal-server.ts';
import { tempDir } from '../helpers/env.ts';

const tool: GoTool = { name: 'example', module: 'example.com/tools', version: '1.2.3', packages: ['cmd/one', 'cmd/tools/two'] };

describe('the Go builder of the tools beside the service', () => {
  it('installs each package of the module at its pinned version into a folder named for the tool and version', () => {
    expect(goInstallArgs(tool)).to.deep.equal(['install', 'example.com/tools/cmd/one@v1.2.3', 'example.com/tools/cmd/tools/two@v1.2.3']);
    expect(goToolDir('/c', tool)).to.equal('/c/example-1.2.3');
    expect(goToolBinary('/c', tool, 'cmd/tools/two')).to.equal('/c/example-1.2.3/two');
    expect(goInstallArgs(TEMPORAL_SERVER)).to.deep.equal(['install', 'go.temporal.io/server/cmd/server@v1.29.1', 'go.temporal.io/server/cmd/tools/sql@v1.29.1']);
    expect(goInstallArgs(TEMPORAL_CLI)).to.deep.equal(['install', 'github.com/temporalio/cli/cmd/temporal@v1.5.1']);
  });

  it('uses a warm cache without Go, and on a cold cache without Go says what is missing', async () => {
    const cacheDir = tempDir();
    const lines: string[] = [];
    const place = { cacheDir, searchPath: join(cacheDir, 'no-go-here'), childEnv: {} };
    expect(await ensureGoTool(tool, place, (line) => lines.push(line))).to.equal(undefined);
    expect(lines.join('\n')).to.include('example v1.2.3').and.include('Go is not on PATH');
    // One binary of two is not a warm cache.
    mkdirSync(goToolDir(cacheDir, tool), { recursive: true });
    for (const pkg of tool.packages.slice(0, 1)) writeFileSync(goToolBinary(cacheDir, tool, pkg), '#!/bin/sh\n');
    chmodSync(goToolBinary(cacheDir, tool, 'cmd/one'), 0o755);
    expect(await ensureGoTool(tool, place, () => undefined)).to.equal(undefined);
    writeFileSync(goToolBinary(cacheDir, tool, 'cmd/tools/two'), '#!/bin/sh\n');
    chmodSync(goToolBinary(cacheDir, tool, 'cmd/tools/two'), 0o755);
    expect(await ensureGoTool(tool, place, () => undefined)).to.equal(goToolDir(cacheDir, tool));
  });
});
