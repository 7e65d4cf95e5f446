import * as assert from 'node:assert/strict';
import { parseRateLimit, parseResetDuration, parseRetryAfter } from '../../src/core/judge/transport/rateLimitHeaders';

const headers = (h: Record<string, string>) => new Headers(h);

describe('rate-limit headers', () => {
  describe('x-ratelimit-reset-* durations', () => {
    it('reads the Go-style durations OpenAI and Azure write', () => {
      assert.equal(parseResetDuration('1s'), 1_000);
      assert.equal(parseResetDuration('20ms'), 20);
      assert.equal(parseResetDuration('6m0s'), 360_000);
      assert.equal(parseResetDuration('1h2m3.5s'), 3_723_500);
    });

    it('reads sub-millisecond units', () => {
      assert.equal(parseResetDuration('500us'), 0.5);
      assert.equal(parseResetDuration('250µs'), 0.25);
      assert.equal(parseResetDuration('2000000ns'), 2);
    });

    it('reads bare numbers as seconds, around surrounding spaces', () => {
      assert.equal(parseResetDuration('2'), 2_000);
      assert.equal(parseResetDuration(' 0.5 '), 500);
    });

    it('refuses anything else rather than guessing', () => {
      for (const text of ['', '  ', 'soon', '1x', 's1', '-1s', '1s garbage', '1.s']) {
        assert.equal(parseResetDuration(text), undefined, JSON.stringify(text));
      }
      assert.equal(parseResetDuration(null), undefined);
      assert.equal(parseResetDuration(undefined), undefined);
    });
  });

  describe('x-ratelimit-*-requests', () => {
    it('reads limit, remaining and reset', () => {
      const info = parseRateLimit(headers({
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '59',
        'x-ratelimit-reset-requests': '1s',
      }));
      assert.deepEqual(info, { remaining: 59, limit: 60, resetMs: 1_000 });
    });

    it('needs remaining; without it there is nothing to learn', () => {
      assert.equal(parseRateLimit(headers({ 'x-ratelimit-limit-requests': '60' })), undefined);
      assert.equal(parseRateLimit(headers({})), undefined);
      assert.equal(parseRateLimit(undefined), undefined);
      assert.equal(parseRateLimit(null), undefined);
    });

    it("drops Azure's -1 for unknown and non-integer values instead of reading them as numbers", () => {
      assert.equal(parseRateLimit(headers({ 'x-ratelimit-remaining-requests': '-1' })), undefined);
      const info = parseRateLimit(headers({
        'x-ratelimit-remaining-requests': '3',
        'x-ratelimit-limit-requests': '1.5',
        'x-ratelimit-reset-requests': 'later',
      }));
      assert.deepEqual(info, { remaining: 3 });
    });
  });

  describe('retry-after', () => {
    it('prefers retry-after-ms over retry-after', () => {
      assert.equal(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
    });

    it('reads retry-after in seconds', () => {
      assert.equal(parseRetryAfter(headers({ 'retry-after': '2' })), 2_000);
      assert.equal(parseRetryAfter(headers({ 'retry-after': '0.5' })), 500);
    });

    it('reads retry-after as an HTTP date relative to now', () => {
      const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
      assert.equal(parseRetryAfter(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }), now), 30_000);
    });

    it('caps at ten minutes and never goes below zero', () => {
      assert.equal(parseRetryAfter(headers({ 'retry-after': '3600' })), 600_000);
      assert.equal(parseRetryAfter(headers({ 'retry-after-ms': '-5' })), 0);
      const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
      assert.equal(parseRetryAfter(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:00:00 GMT' }), now), 0);
    });

    it('is undefined when absent, blank or unreadable', () => {
      assert.equal(parseRetryAfter(undefined), undefined);
      assert.equal(parseRetryAfter(headers({})), undefined);
      assert.equal(parseRetryAfter(headers({ 'retry-after': ' ' })), undefined);
      assert.equal(parseRetryAfter(headers({ 'retry-after': 'whenever' })), undefined);
      assert.equal(parseRetryAfter(headers({ 'retry-after-ms': 'x', 'retry-after': '1' })), 1_000);
    });
  });
});
