import { describe, expect, it } from 'vitest';
import { menuFor, NAV_GROUPS, SCREENS, screensFor } from './nav.ts';

const labels = (role: number) => menuFor(role).flatMap((g) => g.screens.map((s) => s.label));

describe('role-aware navigation', () => {
  it('groups follow NAV_GROUPS order and leave empty groups out', () => {
    for (const role of [1, 100, 105, 110, 120, 135, 150, 170, 190, 200, 250, 300]) {
      const groups = menuFor(role).map((g) => g.group);
      expect(groups).toEqual(NAV_GROUPS.filter((g) => groups.includes(g)));
      expect(menuFor(role).every((g) => g.screens.length > 0)).toBe(true);
    }
  });

  it('mirrors the API gates: administration for managers only', () => {
    expect(labels(100)).toEqual(
      expect.arrayContaining([
        'Users',
        'Company settings',
        'Operating hours',
        'Permissions',
        'API keys',
        'Pilot groups',
        'Pilot directory',
        'News',
        'My account',
      ]),
    );
    expect(labels(110)).toContain('API keys');
    expect(labels(110)).not.toContain('Company settings');
    expect(labels(150)).toEqual(expect.arrayContaining(['Pilot groups', 'Pilot directory']));
    expect(labels(150)).not.toContain('Users');
    expect(labels(250)).toEqual(expect.arrayContaining(['Users', 'Pilot directory']));
    expect(labels(250)).not.toContain('API keys');
    for (const role of [190, 200, 300]) {
      expect(labels(role)).toEqual(expect.arrayContaining(['News', 'Alerts', 'My account']));
      for (const admin of ['Users', 'Company settings', 'Operating hours', 'Permissions', 'API keys', 'Pilot groups'])
        expect(labels(role)).not.toContain(admin);
    }
  });

  it('company statistics for office staff (roles up to 170, who may scope reports by aircraft)', () => {
    for (const role of [100, 105, 120, 150, 170]) expect(labels(role)).toContain('Company statistics');
    for (const role of [190, 200, 250, 300]) expect(labels(role)).not.toContain('Company statistics');
  });

  it('hidden screens open by link but are not listed', () => {
    expect(screensFor(190).some((s) => s.screen === 'pilot')).toBe(true);
    expect(labels(190)).not.toContain('Pilot');
    expect(new Set(SCREENS.map((s) => s.screen)).size).toBe(SCREENS.length);
  });
});

describe('screens in their areas: every role keeps the screens it had', () => {
  // The visibility rules as numbers, as they were written before the screens moved to
  // their areas and the checks to the gates (a test may spell role numbers).
  const before: Record<string, (role: number) => boolean> = {
    fleet: () => true,
    techlog: () => true,
    maintenance: () => true,
    flights: () => true,
    changes: () => true,
    alerts: () => true,
    company: (r) => r <= 105,
    hours: (r) => r <= 105,
    permissions: (r) => r <= 105,
    users: (r) => [1, 100, 105, 110, 250].includes(r),
    pilots: (r) => r <= 170 || r === 250,
    pilot: () => true,
    groups: (r) => r <= 150,
    bases: (r) => r <= 170 || r === 250,
    'api-keys': (r) => r <= 110,
    news: () => true,
    account: () => true,
    me: (r) => r !== 300 && r !== 250,
    logbook: () => true,
    'company-stats': (r) => r <= 170,
    schedule: () => true,
    safety: () => true,
    'my-training': (r) => r !== 250 && r !== 300,
    'training-today': (r) => r <= 150,
    'training-overview': (r) => r <= 135,
    // Added this round (billing, CONTRACT 6; duty, CONTRACT 7).
    'my-billing': () => true,
    'billing-accounts': (r) => r <= 170,
    'billing-rates': (r) => r <= 170,
    'my-duty': () => true,
    'crew-duty': (r) => r <= 170,
    // Issue 28: the office's company-wide flight list.
    'company-flights': (r) => r <= 170,

    // Readiness (issue 31): the policy screen for company managers.
    'readiness-settings': (r) => r <= 105,
  };

  it('lists the same screens as before', () => {
    expect(SCREENS.map((s) => s.screen).sort()).toEqual(Object.keys(before).sort());
  });

  it.each([1, 100, 105, 110, 120, 135, 150, 170, 190, 200, 250, 300])('role %i sees what it saw', (role) => {
    const expected = Object.keys(before).filter((screen) => before[screen](role));
    expect(
      screensFor(role)
        .map((s) => s.screen)
        .sort(),
    ).toEqual(expected.sort());
  });
});

describe('plans', () => {
  const listed = (role: number, plan?: 'free' | 'premium' | 'club') =>
    menuFor(role, plan).flatMap((g) => g.screens.map((s) => s.screen));
  it('the menu leaves out Safety reports where the plan has no safety reporting; an unknown plan filters nothing', () => {
    expect(listed(190, 'free')).not.toContain('safety');
    expect(listed(190, 'club')).not.toContain('safety');
    expect(listed(190, 'premium')).toContain('safety');
    expect(listed(190)).toContain('safety');
  });
});
