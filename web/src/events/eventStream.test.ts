// The dashboard's reader of GET /events/stream against the frames the service writes (its own writer).
import { describe, expect, it } from 'vitest';
import { sseComment, sseEvent, sseRetry } from '@concord/contract';
import { EventStreamReader } from './eventStream';
import { queriesChangedBy, STREAMED_QUERIES } from './invalidation';

const completed = {
  id: 'evt_c1',
  type: 'task.completed',
  taskId: 't1',
  payload: { event: 'task.completed', taskId: 't1', note: 'ünïcode' },
  createdAt: '2026-03-14T09:31:26.000Z',
};
const low = { id: 'evt_c2', type: 'budget.low', taskId: null, payload: { event: 'budget.low', creditBalance: 380 }, createdAt: '2026-03-14T09:32:00.000Z' };
const text =
  sseRetry(3_000) +
  sseComment('connected') +
  sseEvent(completed.id, completed.type, JSON.stringify(completed)) +
  sseComment('ping') +
  sseEvent(low.id, low.type, JSON.stringify(low));

describe('EventStreamReader', () => {
  it("reads the service's frames, however the text is cut, and remembers the last event id", () => {
    for (const size of [1, 5, 17, text.length]) {
      const reader = new EventStreamReader();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...reader.push(text.slice(i, i + size)));
      expect(events).toEqual([completed, low]);
      expect(reader.lastEventId).toBe('evt_c2');
    }
  });

  it('takes CRLF line ends and skips comments and blocks without data', () => {
    const reader = new EventStreamReader();
    expect(reader.push(': ping\r\n\r\nid: x\r\nevent: e\r\n\r\n')).toEqual([]);
    expect(reader.push(`id: y\r\ndata: ${JSON.stringify(low)}\r\n\r\n`)).toEqual([low]);
    expect(reader.lastEventId).toBe('y');
  });
});

describe('queriesChangedBy', () => {
  it('refreshes the task views and the balance on a completed or failed task, the balance and the ledger on budget.low', () => {
    expect(queriesChangedBy({ type: 'task.completed', taskId: 't1' })).toEqual(
      expect.arrayContaining([
        ['overview'],
        ['tasks', 'list'],
        ['tasks', 'counts'],
        ['tasks', 'at-risk'],
        ['tasks', 'detail', 't1'],
        ['projects', 'detail'],
        ['projects', 'pairwise'],
        ['me'],
        ['billing', 'ledger'],
      ]),
    );
    expect(queriesChangedBy({ type: 'task.failed', taskId: 't2' })).toEqual(expect.arrayContaining([['tasks', 'detail', 't2'], ['me']]));
    expect(queriesChangedBy({ type: 'task.failed', taskId: 't2' })).not.toContainEqual(['billing', 'ledger']);
    expect(queriesChangedBy({ type: 'budget.low', taskId: null })).toEqual(expect.arrayContaining([['overview'], ['me'], ['billing', 'ledger']]));
    expect(queriesChangedBy({ type: 'ping', taskId: null })).toEqual([['overview'], ['webhooks']]);
  });

  it('refreshes the spending caps and the overview on budget.cap_reached, and the caps when a task is decided', () => {
    expect(queriesChangedBy({ type: 'budget.cap_reached', taskId: null })).toEqual(expect.arrayContaining([['overview'], ['billing', 'caps']]));
    expect(queriesChangedBy({ type: 'budget.cap_reached', taskId: null })).not.toContainEqual(['me']);
    expect(queriesChangedBy({ type: 'task.completed', taskId: 't1' })).toContainEqual(['billing', 'caps']);
    expect(queriesChangedBy({ type: 'task.failed', taskId: 't2' })).toContainEqual(['billing', 'caps']);
    expect(STREAMED_QUERIES).toContainEqual(['billing', 'caps']);
  });

  it('refreshes the reopened task, the lists, the balance, the ledger, the caps and the quality figures on task.rejected', () => {
    expect(queriesChangedBy({ type: 'task.rejected', taskId: 't3' })).toEqual(
      expect.arrayContaining([
        ['overview'],
        ['tasks', 'list'],
        ['tasks', 'counts'],
        ['tasks', 'detail', 't3'],
        ['me'],
        ['billing', 'ledger'],
        ['billing', 'caps'],
        ['projects', 'quality'],
      ]),
    );
  });
});
