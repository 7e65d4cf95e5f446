// "Run on Dataset via Batch API" and the Provider Batches view in the real extension host, against
// a local Files + Batches API: submit writes a state file under .judge-studio/batches/, refreshing
// follows the job and collects it when done, and the results are the lines `run` writes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { readState } from '../../../src/core/batch/state';
import { resultsFileFor } from '../../../src/extension/batchApi/model';
import { FakeBatchServer } from '../../support/fakeBatchServer';
import { EXTENSION_ID, until, workspaceFile } from './util';

const config = () => vscode.workspace.getConfiguration('judgeStudio');

describe('provider batches from the editor', () => {
  let fake: FakeBatchServer;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    fake = await FakeBatchServer.start();
    fake.progressSteps = 2;
    await config().update('endpoint.baseUrl', fake.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', 'fake-judge', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('endpoint.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await fake.close();
  });

  it('submits a dataset via the Batch API, follows it on refresh and collects every row when done', async () => {
    const template = workspaceFile('helpfulness.judge');
    const dataset = workspaceFile('helpfulness.jsonl');
    const rows = fs.readFileSync(dataset.fsPath, 'utf8').trim().split('\n').length;
    const stateFile = await vscode.commands.executeCommand<string>('judgeStudio.runJudgeOnDatasetViaBatch', { template, dataset });
    assert.ok(stateFile && stateFile.includes('.judge-studio/batches/'), `state file: ${stateFile}`);
    const submitted = await readState(stateFile);
    assert.ok(submitted.submitted && submitted.batches.every((b) => b.id), 'every part has its batch');
    assert.equal(submitted.settings.model, 'fake-judge');

    const out = resultsFileFor(stateFile);
    await until('the job to be collected after refreshes', async () => {
      await vscode.commands.executeCommand('judgeStudio.refreshProviderBatches');
      return fs.existsSync(out) && fs.readFileSync(out, 'utf8').trim().split('\n').length === rows;
    });
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const l of lines) {
      assert.ok(Number.isInteger(l['helpfulness/score']), `row ${String(l._row)} has a score`);
      assert.match(String(l['helpfulness/batch_id']), /^batch-/);
    }
    const collected = await readState(stateFile);
    assert.ok(collected.batches.every((b) => b.status === 'completed' && b.collected));
  });
});
