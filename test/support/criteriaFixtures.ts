// A fake multi-criterion judge for the local test server: each reply is derived from the response
// it is shown, through a table the test supplies (per model, for tiered runs).
import * as path from 'node:path';
import { reply, type FakeRule, type RecordedRequest } from './fakeOpenAI';
import { readJsonl } from './judgeFixtures';

export const CRITERIA_DIR = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'criteria');
export const CASES = readJsonl(path.join(CRITERIA_DIR, 'cases.jsonl'));

/** The response inside `<response>` tags of the last user message of a request. */
export function responseOf(r: RecordedRequest): string {
  const user = (r.body?.messages ?? []).filter((m) => m.role === 'user')[0]?.content ?? '';
  return /<response>\n([\s\S]*?)\n<\/response>/.exec(user)?.[1] ?? '';
}

/** A full reply scoring each criterion; `edit` may break it (drop, add or misscore a criterion). */
export function criteriaReply(scores: Record<string, number>, edit?: (criteria: Record<string, unknown>) => void): Record<string, unknown> {
  const criteria: Record<string, unknown> = {};
  for (const [name, score] of Object.entries(scores)) {
    criteria[name] = { evidence: [`evidence for ${name}`], justification: `why ${name} is ${score}`, score, improvement: `improve ${name}` };
  }
  edit?.(criteria);
  return { criteria, summary: `summary of ${Object.values(scores).join('/')}` };
}

export type ScoreTable = (response: string, model: string, request: RecordedRequest) => Record<string, unknown> | string | undefined;

/** Answers every chat request from `table`; undefined falls through to the next rule. */
export function criteriaJudge(table: ScoreTable): FakeRule {
  return (r) => {
    const value = table(responseOf(r), r.body?.model ?? '', r);
    return value === undefined ? undefined : reply(value);
  };
}

/** The scores the fixture says the judge gives a response. */
export function fixtureScores(response: string): Record<string, number> {
  const row = CASES.find((c) => c.response === response);
  if (!row) throw new Error(`no fixture row for ${response}`);
  return row.judge as Record<string, number>;
}

/** True for a repair request (the second call of a pass). */
export function isRepair(r: RecordedRequest): boolean {
  return (r.body?.messages ?? []).some((m) => m.role === 'user' && m.content.startsWith('Your previous reply could not be used'));
}
