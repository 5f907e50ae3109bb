-- An index built CONCURRENTLY is left INVALID (unused, but present) when its build is interrupted; the work
-- queue then has no index it can read. Stop here rather than run on one: rebuild it with
-- REINDEX INDEX CONCURRENTLY <name>, then mark this migration rolled back and deploy again.
DO $$
DECLARE
  v_invalid text;
BEGIN
  SELECT string_agg(c.relname, ', ') INTO v_invalid
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE c.relname IN ('tasks_served_queue_idx', 'tasks_held_idx', 'tasks_released_idx') AND NOT i.indisvalid;
  IF v_invalid IS NOT NULL THEN
    RAISE EXCEPTION 'invalid index(es) on tasks: %', v_invalid
      USING HINT = 'REINDEX INDEX CONCURRENTLY each, then: npx prisma migrate resolve --rolled-back 20261128130200_queue_indexes_valid';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relname = 'tasks_served_queue_idx') THEN
    RAISE EXCEPTION 'tasks_served_queue_idx is missing: the work queue has no index';
  END IF;
END $$;
