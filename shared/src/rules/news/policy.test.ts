import { describe, expect, it } from 'vitest';
import { mayManageNews, mayPublishPlatformNews, mayReadArticle } from './policy.ts';

describe('news policy', () => {
  it('lets roles <= 135 manage news', () => {
    expect(mayManageNews({ role: 135 })).toBe(true);
    expect(mayManageNews({ role: 150 })).toBe(false);
  });
  it('addresses articles by recipient role; management reads all', () => {
    expect(mayReadArticle({ role: 105 }, { recipients: [190] })).toBe(true);
    expect(mayReadArticle({ role: 110 }, { recipients: [190] })).toBe(false);
    expect(mayReadArticle({ role: 190 }, { recipients: [190] })).toBe(true);
    expect(mayReadArticle({ role: 300 }, { recipients: [] })).toBe(true);
  });
  it('keeps the platform feed to the platform administrator', () => {
    expect(mayPublishPlatformNews({ role: 1 })).toBe(true);
    expect(mayPublishPlatformNews({ role: 100 })).toBe(false);
  });
});
