// Webhook states the browser tests cannot reach through the API in a test's time: a configuration the
// service disabled after 3 days of failed attempts (extended policy), written as the delivery worker
// writes it (is_active false, disabled_at, disabled_reason).
import pg from 'pg';

export const DISABLED_REASON = 'Every delivery attempt failed for 3 days (last error: HTTP 503)';

/** Marks the configurations whose URL contains `urlPart` as disabled by the service; returns their ids. */
export async function disableWebhooks(databaseUrl: string, urlPart: string, reason = DISABLED_REASON): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ id: string }>(
      `UPDATE webhook_configs SET is_active = false, disabled_at = now(), disabled_reason = $2, failing_since = now() - interval '3 days'
       WHERE strpos(url, $1) > 0 RETURNING id`,
      [urlPart, reason],
    );
    return result.rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}
