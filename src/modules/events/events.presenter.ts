// How an event is shown: by GET /events and GET /events/:id (with its deliveries), and in each frame
// of GET /events/stream (without them: they are still being attempted when the frame is sent).
import type { EventRecord, StreamedEventRecord } from './events.repository.ts';

/** The event with the payload parsed back into the object that was sent. */
export function presentStreamedEvent(event: Omit<StreamedEventRecord, 'buyerId' | 'seq'>) {
  const payload = JSON.parse(event.payload) as Record<string, unknown>;
  return {
    id: event.id,
    type: event.type,
    taskId: typeof payload.taskId === 'string' ? payload.taskId : null,
    payload,
    createdAt: event.createdAt.toISOString(),
  };
}

/** The event and the outcome of each of its deliveries. */
export function presentEvent(event: EventRecord) {
  return {
    ...presentStreamedEvent(event),
    deliveries: event.deliveries.map((delivery) => ({ ...delivery, deliveredAt: delivery.deliveredAt?.toISOString() ?? null })),
  };
}
