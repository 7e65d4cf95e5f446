// Where the editor asks each panel member, and which headers go where (keys are per origin).
import * as assert from 'node:assert/strict';
import { planPanel } from '../../src/extension/providers/model/panel';

describe('editor panel endpoints', () => {
  const c = { baseUrl: 'https://api.example.com/v1', headers: { 'X-Team': 't1' }, endpoints: { local: 'http://127.0.0.1:8000/v1' } };

  it('resolves a member by URL, by endpoint name, or to the configured endpoint, headers only to its origin', () => {
    const plan = planPanel([{ model: 'a' }, { model: 'b', endpoint: 'local' }, { model: 'c', endpoint: 'https://api.example.com/other' }, { model: 'd', endpoint: 'https://evil.example.net/v1' }], c);
    assert.ok(plan.ok);
    assert.deepEqual(plan.members.map((m) => [m.model, m.baseURL, Object.keys(m.headers)]), [
      ['a', 'https://api.example.com/v1', ['X-Team']],
      ['b', 'http://127.0.0.1:8000/v1', []],
      ['c', 'https://api.example.com/other', ['X-Team']],
      ['d', 'https://evil.example.net/v1', []],
    ]);
  });

  it('says which member has no endpoint or an unknown name', () => {
    const none = planPanel([{ model: 'a' }], { ...c, baseUrl: '' });
    assert.ok(!none.ok && /panel judge a names no endpoint/.test(none.message));
    const unknown = planPanel([{ model: 'b', endpoint: 'nope' }], c);
    assert.ok(!unknown.ok && /no endpoint named "nope"/.test(unknown.message));
    const creds = planPanel([{ model: 'b', endpoint: 'https://u:p@h/v1' }], c);
    assert.ok(!creds.ok && /must not contain a user name or password/.test(creds.message));
  });
});
