import { expect } from 'chai';
import { registerSearchAttributes, SEARCH_ATTRIBUTES } from '../../lib/temporal.ts';
import { msToTs } from '@temporalio/common/lib/time.js';
import { testConnection } from '../helpers/temporal.ts';

describe('search attributes', function () {
  this.timeout(30_000);

  it('are registered by the worker on a namespace that lacks them (a production server), and again without error', async () => {
    const connection = await testConnection();
    const namespace = `sa-${Date.now()}`;
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(86_400_000) });
    const before = await connection.operatorService.listSearchAttributes({ namespace });
    expect(Object.keys(before.customAttributes ?? {})).not.to.include.members([...SEARCH_ATTRIBUTES]);

    await registerSearchAttributes(connection, namespace);
    await registerSearchAttributes(connection, namespace);

    const after = await connection.operatorService.listSearchAttributes({ namespace });
    expect(Object.keys(after.customAttributes ?? {})).to.include.members([...SEARCH_ATTRIBUTES]);
  });
});
