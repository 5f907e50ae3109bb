// Spending caps in the dashboard's words: dollars to cents as the API checks them, the progress figures and
// the sentences about caps.
import { MAX_CAP_CENTS } from '@concord/contract';
import { describe, expect, it } from 'vitest';
import {
  capDollarsText,
  capReachedWords,
  capUsage,
  committedOfCap,
  heldWords,
  monthlyCapSaved,
  monthWords,
  percentWords,
  projectCapSaved,
  readCapDollars,
  roomWords,
} from './caps';

describe('readCapDollars', () => {
  it('reads dollars as typed into whole cents', () => {
    expect(readCapDollars('2000')).toEqual({ cents: 200_000, problem: null });
    expect(readCapDollars(' $1,250.5 ')).toEqual({ cents: 125_050, problem: null });
    expect(readCapDollars('0')).toEqual({ cents: 0, problem: null });
    expect(readCapDollars('0.01')).toEqual({ cents: 1, problem: null });
  });

  it('takes caps up to MAX_CAP_CENTS and refuses one cent more', () => {
    expect(readCapDollars('100000000')).toEqual({ cents: MAX_CAP_CENTS, problem: null });
    expect(readCapDollars('100,000,000.00')).toEqual({ cents: MAX_CAP_CENTS, problem: null });
    expect(readCapDollars('100000000.01')).toEqual({ cents: null, problem: 'The largest cap is $100,000,000.00.' });
  });

  it('says why what is typed is not a cap', () => {
    expect(readCapDollars('').problem).toMatch(/^Enter the cap in dollars/);
    expect(readCapDollars('   ').problem).toMatch(/^Enter the cap in dollars/);
    expect(readCapDollars('-5').problem).toBe('A cap cannot be negative: enter 0 or more.');
    expect(readCapDollars('−5').problem).toBe('A cap cannot be negative: enter 0 or more.');
    expect(readCapDollars('12.345').problem).toMatch(/at most two decimals/);
    expect(readCapDollars('five hundred').problem).toMatch(/Enter an amount in dollars/);
    expect(readCapDollars('1e6').problem).toMatch(/Enter an amount in dollars/);
  });

  it('writes a cap back as the field shows it', () => {
    expect(capDollarsText(200_000)).toBe('2000.00');
    expect(capDollarsText(5)).toBe('0.05');
    expect(capDollarsText(null)).toBe('');
    expect(readCapDollars(capDollarsText(MAX_CAP_CENTS)).cents).toBe(MAX_CAP_CENTS);
  });
});

describe('capUsage', () => {
  it('fills the bar with what is committed, rounded down to whole percents', () => {
    expect(capUsage(125_430, 200_000)).toEqual({ share: 0.62715, percent: 62, remainingCents: 74_570, overCents: 0, state: 'open' });
    expect(capUsage(0, 200_000)).toMatchObject({ share: 0, percent: 0, state: 'open' });
    // 99.995 % is not yet the cap: the bar never says 100 % before it is reached.
    expect(capUsage(199_990, 200_000)).toMatchObject({ percent: 99, remainingCents: 10, state: 'near' });
  });

  it('turns amber from 80 % and says when the cap is reached or passed', () => {
    expect(capUsage(159_999, 200_000).state).toBe('open');
    expect(capUsage(160_000, 200_000).state).toBe('near');
    expect(capUsage(200_000, 200_000)).toMatchObject({ share: 1, percent: 100, remainingCents: 0, overCents: 0, state: 'reached' });
    // A cap lowered below what is committed: the bar is full, the percentage says how far past.
    expect(capUsage(250_000, 200_000)).toMatchObject({ share: 1, percent: 125, remainingCents: 0, overCents: 50_000, state: 'reached' });
  });

  it('reads a zero cap as reached', () => {
    expect(capUsage(0, 0)).toMatchObject({ share: 1, percent: 100, state: 'reached' });
    const passed = capUsage(500, 0);
    expect(passed).toMatchObject({ share: 1, overCents: 500, state: 'reached' });
    expect(percentWords(passed)).toBe('more than 999 %');
    expect(percentWords(capUsage(1, 3))).toBe('33 %');
  });
});

describe('the words about caps', () => {
  it('says what is committed and what is left', () => {
    expect(committedOfCap(125_430, 200_000)).toBe('$1,254.30 of $2,000.00 committed');
    expect(roomWords(125_430, 200_000)).toBe('$745.70 left.');
    expect(roomWords(200_000, 200_000)).toBe('The cap is reached: new work is refused until it is raised.');
    expect(roomWords(200_000, 200_000, 'hold')).toBe('The cap is reached: new tasks are held until it is raised.');
    expect(roomWords(250_000, 200_000)).toBe('$500.00 over the cap: new work is refused until it is raised.');
  });

  it('names the month and counts held tasks', () => {
    expect(monthWords('2026-03')).toBe('March 2026');
    expect(monthWords('2026-12')).toBe('December 2026');
    expect(monthWords('soon')).toBe('soon');
    expect(heldWords(0)).toBe('No task held');
    expect(heldWords(1)).toBe('1 task held');
    expect(heldWords(1204)).toBe('1,204 tasks held');
  });

  it('says what a saved cap did', () => {
    expect(monthlyCapSaved(200_000)).toBe('The monthly cap is now $2,000.00.');
    expect(monthlyCapSaved(null)).toMatch(/removed/);
    const project = { name: 'Support replies', capCents: 50_000, capAction: 'hold' as const, heldTasks: 0 };
    expect(projectCapSaved(project, 0)).toBe('The budget cap of Support replies is now $500.00; past it, new tasks are held.');
    expect(projectCapSaved({ ...project, capAction: 'refuse' }, 0)).toMatch(/new tasks are refused\.$/);
    expect(projectCapSaved({ ...project, heldTasks: 2 }, 5)).toBe(
      'The budget cap of Support replies is now $500.00; past it, new tasks are held. 3 held tasks were released and reserved. 2 tasks are still held: the caps or the available balance have no room for them.',
    );
    expect(projectCapSaved({ ...project, capCents: null, heldTasks: 0 }, 1)).toBe(
      'The budget cap of Support replies is removed. 1 held task was released and reserved.',
    );
    expect(projectCapSaved({ ...project, capCents: null, heldTasks: 1 }, 1)).toMatch(/1 task is still held: the monthly cap or the available balance/);
  });

  it('words budget.cap_reached for the overview', () => {
    expect(capReachedWords({ scope: 'organisation', projectId: null, capCents: 200_000, committedCents: 199_950 })).toBe(
      'Monthly cap of $2,000.00 reached ($1,999.50 committed)',
    );
    expect(capReachedWords({ scope: 'project', projectId: 'p1', capCents: 50_000, committedCents: 49_990 }, 'Support replies')).toBe(
      'Support replies: budget cap of $500.00 reached ($499.90 committed)',
    );
    expect(capReachedWords({ scope: 'project', projectId: 'p1', capCents: 60, committedCents: 0, requiredCents: 160 }, 'Intents')).toBe(
      'Intents: budget cap of $0.60 reached ($0.00 committed, $1.60 more asked for)',
    );
    expect(capReachedWords({ scope: 'project', projectId: 'p1' })).toBe('A project’s budget cap reached');
  });
});
