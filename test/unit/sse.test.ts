import { describe, expect, it } from 'vitest';
import { SseParser } from '@concord/contract';
import { sseComment, sseEvent, sseRetry } from '@concord/contract';

describe('server-sent event frames', () => {
  it('writes an event as id, event and data lines ended by a blank line', () => {
    expect(sseEvent('evt_1', 'task.completed', '{"a":1}')).toBe('id: evt_1\nevent: task.completed\ndata: {"a":1}\n\n');
    expect(sseComment('ping')).toBe(': ping\n\n');
    expect(sseRetry(3_000)).toBe('retry: 3000\n\n');
  });

  it('splits data over several data lines, which a reader joins back exactly', () => {
    const data = 'one\ntwo\r\nthree';
    const frame = sseEvent('e', 'x', data);
    expect(frame).toBe('id: e\nevent: x\ndata: one\ndata: two\ndata: three\n\n');
    expect(new SseParser().push(frame)).toEqual([{ id: 'e', event: 'x', data: 'one\ntwo\nthree' }]);
  });

  it('refuses an id, a type or a comment that would break the framing', () => {
    expect(() => sseEvent('a\nid: b', 'x', '')).toThrow(/line break/);
    expect(() => sseEvent('a', 'x\r', '')).toThrow(/line break/);
    expect(() => sseComment('ping\n\ndata: forged')).toThrow(/line break/);
  });
});

describe("the SDK's SseParser on the server's frames", () => {
  const stream = sseRetry(3_000) + sseComment('connected') + sseEvent('1', 'a', '{"n":1}') + sseComment('ping') + sseEvent('2', 'b', '{"n":2}');

  it('reads events and comments however the text is cut into chunks', () => {
    for (const size of [1, 2, 3, 7, 64, stream.length]) {
      const comments: string[] = [];
      const reader = new SseParser((comment) => comments.push(comment));
      const messages = [];
      for (let i = 0; i < stream.length; i += size) messages.push(...reader.push(stream.slice(i, i + size)));
      expect(messages).toEqual([
        { id: '1', event: 'a', data: '{"n":1}' },
        { id: '2', event: 'b', data: '{"n":2}' },
      ]);
      expect(comments).toEqual(['connected', 'ping']);
      expect(reader.lastEventId).toBe('2');
    }
  });

  it('follows the standard: CRLF and CR line ends, no space after the colon, "message" by default, events without data not dispatched, the id kept', () => {
    const reader = new SseParser();
    expect(reader.push('id:7\r\ndata:x\r\n\r\nevent: lone\r\n\r\ndata: y\r')).toEqual([{ id: '7', event: 'message', data: 'x' }]);
    expect(reader.push('\n\n')).toEqual([{ id: '7', event: 'message', data: 'y' }]);
    expect(reader.push('data\n\n')).toEqual([{ id: '7', event: 'message', data: '' }]);
  });
});
