// The audit log's filters: read from the URL (what the API would refuse is dropped), changed, and turned
// into GET /audit-log's query: days of the reader's calendar as instants, the last day included.
import { AUDIT_ACTIONS } from '@concord/contract';
import { describe, expect, it } from 'vitest';
import {
  actorChoice,
  actorOptions,
  AUDIT_PAGE_SIZE,
  auditFiltersKey,
  auditLogQuery,
  auditLogSearch,
  changeAuditParams,
  CLEARED_AUDIT_FILTERS,
  dateRangeProblem,
  dayStart,
  hasAuditFilter,
  OTHER_ACTOR,
  readAuditFilters,
} from './auditFilters';

const local = (year: number, month: number, day: number) => new Date(year, month - 1, day).toISOString();

describe('readAuditFilters', () => {
  it('reads every filter the URL names', () => {
    const params = new URLSearchParams('action=updateProject&targetType=project&actor=acc_1&target=p1&from=2026-03-01&to=2026-03-15');
    expect(readAuditFilters(params)).toEqual({
      action: 'updateProject',
      targetType: 'project',
      actor: 'acc_1',
      target: 'p1',
      from: '2026-03-01',
      to: '2026-03-15',
    });
  });

  it('drops what the API would refuse rather than send it', () => {
    const params = new URLSearchParams(`action=dropDatabase&targetType=planet&actor=${'x'.repeat(65)}&target=%20&from=2026-02-31&to=yesterday`);
    expect(readAuditFilters(params)).toEqual({ action: undefined, targetType: undefined, actor: undefined, target: undefined, from: undefined, to: undefined });
  });

  it('takes every action the contract audits', () => {
    for (const action of AUDIT_ACTIONS) expect(readAuditFilters(new URLSearchParams({ action })).action).toBe(action);
  });
});

describe('changeAuditParams', () => {
  it('sets and removes parameters, keeping the others', () => {
    const previous = new URLSearchParams('action=updateProject&from=2026-03-01');
    expect(changeAuditParams(previous, { actor: ' key_1 ', from: undefined }).toString()).toBe('action=updateProject&actor=key_1');
    expect(changeAuditParams(previous, { action: '' }).toString()).toBe('from=2026-03-01');
  });

  it('clears every filter', () => {
    const previous = new URLSearchParams('action=updateProject&targetType=project&actor=a&target=t&from=2026-03-01&to=2026-03-02');
    expect(changeAuditParams(previous, CLEARED_AUDIT_FILTERS).toString()).toBe('');
  });
});

describe('hasAuditFilter and auditFiltersKey', () => {
  it('tells a filtered list from the whole log, and two filters apart', () => {
    expect(hasAuditFilter({})).toBe(false);
    expect(hasAuditFilter({ to: '2026-03-01' })).toBe(true);
    expect(auditFiltersKey({ action: 'updateProject' })).not.toBe(auditFiltersKey({ targetType: 'project' }));
    expect(auditFiltersKey({ actor: 'a' })).toBe(auditFiltersKey({ actor: 'a', target: undefined }));
  });
});

describe('dayStart and dateRangeProblem', () => {
  it('starts a day at local midnight, later days included', () => {
    expect(dayStart('2026-03-15')?.toISOString()).toBe(local(2026, 3, 15));
    expect(dayStart('2026-03-31', 1)?.toISOString()).toBe(local(2026, 4, 1));
    expect(dayStart('2026-13-01')).toBeUndefined();
    expect(dayStart('15/03/2026')).toBeUndefined();
  });

  it('refuses a range that ends before it starts, and takes a one-day range', () => {
    expect(dateRangeProblem({ from: '2026-03-15', to: '2026-03-14' })).toMatch(/before the first day/);
    expect(dateRangeProblem({ from: '2026-03-15', to: '2026-03-15' })).toBeUndefined();
    expect(dateRangeProblem({ from: '2026-03-15' })).toBeUndefined();
  });
});

describe('auditLogQuery and auditLogSearch', () => {
  it('asks for the first page of the whole log', () => {
    expect(auditLogQuery({}, undefined)).toEqual({ limit: AUDIT_PAGE_SIZE });
    expect(auditLogSearch({})).toBe(`limit=${AUDIT_PAGE_SIZE}`);
  });

  it('sends every filter by the API’s names, the days as instants with the last day included', () => {
    const query = auditLogQuery(
      { action: 'createTaskBatch', targetType: 'tasks', actor: 'key_1', target: 't1', from: '2026-03-01', to: '2026-03-15' },
      'cursor_2',
    );
    expect(query).toEqual({
      action: 'createTaskBatch',
      targetType: 'tasks',
      actor: 'key_1',
      target: 't1',
      from: local(2026, 3, 1),
      to: local(2026, 3, 16),
      limit: AUDIT_PAGE_SIZE,
      cursor: 'cursor_2',
    });
  });

  it('builds the query string the API is sent', () => {
    const search = new URLSearchParams(auditLogSearch({ action: 'updateProject', from: '2026-03-01' }, 'c2', 50));
    expect([...search.keys()]).toEqual(['action', 'from', 'limit', 'cursor']);
    expect(search.get('action')).toBe('updateProject');
    expect(search.get('from')).toBe(local(2026, 3, 1));
    expect(search.get('limit')).toBe('50');
    expect(search.get('cursor')).toBe('c2');
  });
});

describe('actorOptions and actorChoice', () => {
  const options = actorOptions([{ accountId: 'acc_1', email: 'owner@acme.example' }], [{ id: 'key_1', name: 'Production ingest', prefix: 'cnc_live_AbCdE' }]);

  it('offers anyone, each member, each key and an id typed in', () => {
    expect(options).toEqual([
      { value: '', label: 'Anyone' },
      { value: 'acc_1', label: 'owner@acme.example (member)' },
      { value: 'key_1', label: 'Production ingest (API key cnc_live_AbCdE…)' },
      { value: OTHER_ACTOR, label: 'Another id (a former member, a revoked key)…' },
    ]);
  });

  it('shows a listed actor as its option, any other id as typed in', () => {
    expect(actorChoice(undefined, options)).toBe('');
    expect(actorChoice('key_1', options)).toBe('key_1');
    expect(actorChoice('acc_gone', options)).toBe(OTHER_ACTOR);
    expect(actorChoice(OTHER_ACTOR, options)).toBe(OTHER_ACTOR);
  });
});
