-- An index built CONCURRENTLY is left INVALID (unused, but present) when its build is interrupted: a
-- buyer's priorities would then cost a walk of its whole queue, and the expiry job a scan of the table.
-- Stop here rather than run on one: rebuild it with REINDEX INDEX CONCURRENTLY <name>, then mark this
-- migration rolled back and deploy again.
DO $$
DECLARE
  v_invalid text;
BEGIN
  SELECT string_agg(c.relname, ', ') INTO v_invalid
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE c.relname IN ('tasks_buyer_queue_idx', 'tasks_prioritised_idx', 'tasks_deadline_idx', 'tasks_buyer_deadline_idx') AND NOT i.indisvalid;
  IF v_invalid IS NOT NULL THEN
    RAISE EXCEPTION 'invalid index(es) on tasks: %', v_invalid
      USING HINT = 'REINDEX INDEX CONCURRENTLY each, then: npx prisma migrate resolve --rolled-back 20261129100800_deadline_indexes_valid';
  END IF;
END $$;
