import proto from '@temporalio/proto';
import { expect } from 'chai';
import { maybeRecordHistory } from '../helpers/histories.ts';
import { testClient } from '../helpers/temporal.ts';
import { testStack } from '../helpers/stack.ts';

describe('the worker', function () {
  this.timeout(60_000);

  it('runs a workflow and its activity on the real Temporal server', async () => {
    const { taskQueue } = await testStack();
    const client = await testClient();
    const workflowId = `ping/${Date.now()}`;
    const result = await client.workflow.execute('pingWorkflow', { taskQueue, workflowId, args: ['hello'] });
    expect(result).to.match(/^pong: hello \(from \d+@/);
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const completed = proto.temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED;
    expect((history.events ?? []).some((e) => e.eventType === completed)).to.be.true;
    await maybeRecordHistory(client, workflowId, 'ping-workflow');
  });
});
