import { match } from 'path-to-regexp';
import { describe, expect, it } from 'vitest';
import { allowedMethods, buildRouteTable, candidates, handles, matchSegments, splitPath } from '../../src/http/route-table.ts';

const declared = [
  { method: 'get', path: '/tasks', value: 'list' },
  { method: 'post', path: '/tasks', value: 'create' },
  { method: 'post', path: '/tasks/batch', value: 'batch' },
  { method: 'get', path: '/tasks/counts', value: 'counts' },
  { method: 'get', path: '/tasks/:id', value: 'get' },
  { method: 'delete', path: '/tasks/:id', value: 'delete' },
  { method: 'post', path: '/sdk/tasks/:id/complete', value: 'complete' },
  { method: 'post', path: '/admin/annotators/:developerId/:annotatorId/reinstate', value: 'reinstate' },
];
const table = buildRouteTable(declared);

/** What the table answers for a method and path: the first route that matches and handles it, with its raw params. */
function lookup(method: string, path: string): { value: string; params: Record<string, string> } | undefined {
  const segments = splitPath(path);
  if (!segments) return undefined;
  for (const route of candidates(table, segments)) {
    const params = matchSegments(route, segments);
    if (params && handles(route.method, method)) return { value: route.value, params: { ...params } };
  }
  return undefined;
}

/** The same with path-to-regexp as Express 5's router calls it (case-insensitive, an optional trailing slash). */
const matchers = declared.map((route) => ({ ...route, match: match(route.path, { sensitive: false, end: true, trailing: true, decode: false }) }));
function expressLookup(method: string, path: string): { value: string; params: Record<string, string> } | undefined {
  for (const route of matchers) {
    const found = route.match(path);
    if (found && handles(route.method.toUpperCase(), method)) return { value: route.value, params: { ...(found.params as Record<string, string>) } };
  }
  return undefined;
}

describe('the route table', () => {
  it('finds the first declared route that matches and handles the method', () => {
    expect(lookup('GET', '/tasks/counts')).toEqual({ value: 'counts', params: {} });
    expect(lookup('GET', '/tasks/c123')).toEqual({ value: 'get', params: { id: 'c123' } });
    expect(lookup('DELETE', '/tasks/counts')).toEqual({ value: 'delete', params: { id: 'counts' } });
    expect(lookup('HEAD', '/tasks/c123')).toEqual({ value: 'get', params: { id: 'c123' } });
    expect(lookup('POST', '/tasks/c123')).toBeUndefined();
    expect(lookup('POST', '/SDK/Tasks/a%20b/COMPLETE/')).toEqual({ value: 'complete', params: { id: 'a%20b' } });
    expect(lookup('POST', '/admin/annotators/d1/a1/reinstate')).toEqual({ value: 'reinstate', params: { developerId: 'd1', annotatorId: 'a1' } });
  });

  it('matches no empty segment, no second trailing slash, nothing but a path', () => {
    expect(lookup('GET', '/tasks//')).toBeUndefined();
    expect(lookup('GET', '/tasks/c1//')).toBeUndefined();
    expect(lookup('POST', '/sdk/tasks//complete')).toBeUndefined();
    expect(lookup('GET', '/')).toBeUndefined();
    expect(lookup('GET', '')).toBeUndefined();
    expect(lookup('GET', 'tasks')).toBeUndefined();
  });

  it('agrees with path-to-regexp as Express calls it, on paths made of the routes’ pieces', () => {
    const pieces = [
      'tasks',
      'TASKS',
      'Counts',
      'counts',
      'batch',
      'sdk',
      'complete',
      'admin',
      'annotators',
      'reinstate',
      'c1',
      'a%2Fb',
      'x.y',
      '',
      'é',
      'İ',
      'K',
      'tas\u212As',
      'ta\u017Fks',
      'COUNTſ',
    ];
    let random = 7;
    const next = () => (random = (random * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 20_000; n++) {
      const length = 1 + (next() % 5);
      const path = `/${Array.from({ length }, () => pieces[next() % pieces.length]).join('/')}${next() % 4 === 0 ? '/' : ''}`;
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) expect(lookup(method, path), `${method} ${path}`).toEqual(expressLookup(method, path));
    }
  });

  it('lists the methods of every route the path matches, for OPTIONS and 405', () => {
    expect(allowedMethods(table, splitPath('/tasks') as string[])).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethods(table, splitPath('/tasks/batch') as string[])).toEqual(['DELETE', 'GET', 'HEAD', 'POST']);
    expect(allowedMethods(table, splitPath('/nothing') as string[])).toEqual([]);
  });

  it('refuses a declaration it could not match as Express would', () => {
    expect(() => buildRouteTable([{ method: 'get', path: '/:id', value: 1 }])).toThrow(/first segment/);
    expect(() => buildRouteTable([{ method: 'get', path: '/tasks/:id?', value: 1 }])).toThrow(/plain name/);
    expect(() => buildRouteTable([{ method: 'get', path: '/Tasks', value: 1 }])).toThrow(/lower-case/);
    expect(() => buildRouteTable([{ method: 'get', path: '/tasks/*rest', value: 1 }])).toThrow(/lower-case/);
  });
});
