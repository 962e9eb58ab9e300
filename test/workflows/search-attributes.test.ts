// The service's own set-up on a Temporal server (lib/temporal.ts): the namespace with its retention and the search
// attributes, registered when missing, idempotent, and safe when several processes start at once.
import { expect } from 'chai';
import { SEARCH_ATTRIBUTES } from '../../lib/temporal.ts';
import { registerNamespace, registerSearchAttributes, setUpTemporal } from '../../lib/temporal-set-up.ts';
import { msToTs } from '@temporalio/common/lib/time.js';
import { testConnection } from '../helpers/temporal.ts';

describe('the service set-up on a Temporal server', function () {
  this.timeout(60_000);

  it('registers the search attributes on a namespace that lacks them (a production server), and again without error', async () => {
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

  it('registers a missing namespace with its retention once when four processes set up at once, then finds it present', async () => {
    const connection = await testConnection();
    const namespace = `setup-${Date.now()}`;
    await Promise.all(Array.from({ length: 4 }, () => setUpTemporal(connection, namespace, 3)));
    const described = await connection.workflowService.describeNamespace({ namespace });
    expect(Number(described.config?.workflowExecutionRetentionTtl?.seconds)).to.equal(3 * 86_400);
    const listed = await connection.operatorService.listSearchAttributes({ namespace });
    expect(Object.keys(listed.customAttributes ?? {})).to.include.members([...SEARCH_ATTRIBUTES]);
    // A later start finds everything in place and changes nothing (the retention an operator set stays).
    expect(await registerNamespace(connection, namespace, 30)).to.equal('present');
    await setUpTemporal(connection, namespace, 30);
    expect(Number((await connection.workflowService.describeNamespace({ namespace })).config?.workflowExecutionRetentionTtl?.seconds)).to.equal(3 * 86_400);
  });
});
