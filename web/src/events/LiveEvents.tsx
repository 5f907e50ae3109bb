// The signed-in buyer's event stream, one per tab, mounted once around the buyer's pages: each event
// invalidates the queries it changes (refetched at once when on screen), bursts coalesced into one
// refresh. While the stream is up those queries poll only slowly (ui/live.ts, streamedInterval).
import { useEffect } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useSession } from '../auth/session';
import { usePermission } from '../organisations/Permitted';
import { setEventStreamLive } from '../ui/live';
import { EventStreamConnection } from './eventStream';
import { queriesChangedBy, STREAMED_QUERIES } from './invalidation';

/** Events that arrive within this window refresh each query once. */
const COALESCE_MS = 250;

function coalescingInvalidator(client: QueryClient) {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    add(keys: QueryKey[]) {
      for (const key of keys) pending.set(JSON.stringify(key), key);
      timer ??= setTimeout(() => {
        timer = undefined;
        const keys = [...pending.values()];
        pending.clear();
        for (const queryKey of keys) void client.invalidateQueries({ queryKey });
      }, COALESCE_MS);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}

export function LiveEvents() {
  const { session } = useSession();
  const client = useQueryClient();
  // The stream carries task events: a role that may not read tasks (billing) is refused it.
  const readsTasks = usePermission('tasks:read').allowed;
  const token = session?.role === 'buyer' && readsTasks ? session.token : null;

  useEffect(() => {
    if (!token) return undefined;
    const invalidator = coalescingInvalidator(client);
    let opened = false;
    const connection = new EventStreamConnection({
      onEvent: (event) => invalidator.add(queriesChangedBy(event)),
      // The first opening comes with the pages' own first fetches; a later one follows a gap.
      onOpen: () => {
        if (opened) invalidator.add(STREAMED_QUERIES);
        opened = true;
      },
      onStatus: (status) => setEventStreamLive(status === 'live'),
    });
    const follow = () => (document.visibilityState === 'visible' ? connection.start() : connection.stop());
    follow();
    document.addEventListener('visibilitychange', follow);
    return () => {
      document.removeEventListener('visibilitychange', follow);
      connection.stop();
      invalidator.cancel();
    };
    // A new token (after a password change) is a new connection.
  }, [token, client]);

  return null;
}
