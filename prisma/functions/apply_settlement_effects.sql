-- Applies up to p_limit settlement effects (written by settle_task for decided tasks) in the order they
-- were written, those that failed before last, in the caller's transaction: the answerers' counters,
-- earnings and EARNING ledger rows (apply_decision), their label counts (add_label_counts), and the
-- buyer's TASK_CHARGE with its ledger row, or the released reservation of a failed task. The caller holds
-- the applier's advisory lock (src/modules/settlement/applier.ts), so every effect is applied
-- once. An effect whose deciding answerers' rows are busy right now waits for a later call (the applier
-- never waits for an annotator: an answer holding one may wait for a task row whose settlement waits for
-- an annotator the applier holds). Rows are locked annotators first (id order), then label counts
-- (annotator order, the re-fit's order), then buyers. Each effect is applied in a block of its own: one
-- that fails (a lock held over lock_timeout, or bad data) is rolled back alone and marked failed_at /
-- last_error, and the others go on. At most p_limit subtransactions: keep it under 64, PostgreSQL's
-- per-backend cache of them. Returns {selected, applied, failed: [{taskId, error}], crossed: [{buyerId,
-- after}]}: crossed lists each charge that crossed p_low_balance_cents (crosses_low_balance), with the
-- balance after it (the caller records budget.low). An effect that is not what
-- settle_task writes (a hand-edited row) fails in its own block like any other, never the whole call:
-- the queries before the blocks read its lists through `jsonb_list`.
CREATE OR REPLACE FUNCTION public.apply_settlement_effects(p_limit integer, p_low_balance_cents bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET lock_timeout TO '2s'
AS $function$
#variable_conflict use_column
DECLARE
  v_selected settlement_effects[];
  v_effects settlement_effects[];
  v_locked text[];
  e settlement_effects;
  v_charge bigint;
  v_after bigint;
  v_applied integer := 0;
  v_crossed jsonb := '[]';
  v_failed jsonb := '[]';
BEGIN
  -- Oldest first, those that failed after: two index ranges (the primary key, and the partial index of
  -- failed ones), not a sort of the table.
  SELECT array_agg(s ORDER BY s.failed_at IS NOT NULL, s.id) INTO v_selected
  FROM (SELECT * FROM ((SELECT * FROM settlement_effects s2 WHERE s2.failed_at IS NULL ORDER BY s2.id LIMIT p_limit)
                       UNION ALL
                       (SELECT * FROM settlement_effects s3 WHERE s3.failed_at IS NOT NULL ORDER BY s3.id LIMIT p_limit)) u
        ORDER BY u.failed_at IS NOT NULL, u.id LIMIT p_limit) s;
  IF v_selected IS NULL THEN
    RETURN jsonb_build_object('selected', 0, 'applied', 0, 'failed', v_failed, 'crossed', v_crossed);
  END IF;
  -- The answerers' rows nobody holds, FOR NO KEY UPDATE (the lock an UPDATE takes: FOR UPDATE would also
  -- conflict with the KEY SHARE locks that inserts referencing the annotator take, and hold those up).
  SELECT coalesce(array_agg(l.id), '{}') INTO v_locked FROM (
    SELECT a.id FROM annotators a
    WHERE a.id IN (SELECT u->>'annotatorId' FROM unnest(v_selected) x, jsonb_array_elements(jsonb_list(x.effect->'updates')) u)
    ORDER BY a.id FOR NO KEY UPDATE SKIP LOCKED) l;
  SELECT array_agg(x ORDER BY x.failed_at IS NOT NULL, x.id) INTO v_effects FROM unnest(v_selected) x
  WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(jsonb_list(x.effect->'updates')) u WHERE NOT (u->>'annotatorId' = ANY (v_locked)));
  IF v_effects IS NOT NULL THEN
    PERFORM 1 FROM annotator_scope_counts c
    WHERE (c.scope_key, c.annotator_id) IN (SELECT x.effect->'model'->>'scopeKey', i->>'annotatorId'
                                            FROM unnest(v_effects) x, jsonb_array_elements(jsonb_list(x.effect->'model'->'increments')) i)
    ORDER BY c.annotator_id, c.scope_key FOR NO KEY UPDATE;
    FOREACH e IN ARRAY v_effects LOOP
      BEGIN
        DELETE FROM settlement_effects s WHERE s.id = e.id;
        PERFORM apply_decision(e.task_id, e.effect->'updates');
        IF jsonb_typeof(e.effect->'model') = 'object' THEN
          PERFORM add_label_counts(e.effect->'model'->>'scopeKey', (e.effect->'model'->>'optionCount')::integer, e.effect->'model'->'increments');
        END IF;
        v_charge := (e.effect->>'chargeCents')::bigint;
        v_after := NULL;
        IF v_charge > 0 THEN
          WITH charged AS (
            UPDATE buyers b SET credit_balance = b.credit_balance - v_charge, reserved_cents = b.reserved_cents - (e.effect->>'releaseCents')::bigint
            WHERE b.id = e.buyer_id
            RETURNING b.credit_balance
          )
          INSERT INTO ledger_entries (id, buyer_id, type, amount_cents, balance_after_cents, task_id)
          SELECT e.effect->>'chargeLedgerId', e.buyer_id, 'TASK_CHARGE', -v_charge, credit_balance, e.task_id FROM charged
          RETURNING balance_after_cents INTO v_after;
        ELSE
          UPDATE buyers b SET reserved_cents = b.reserved_cents - (e.effect->>'releaseCents')::bigint WHERE b.id = e.buyer_id;
        END IF;
        v_applied := v_applied + 1;
        IF v_after IS NOT NULL AND crosses_low_balance(v_after + v_charge, v_after, p_low_balance_cents) THEN
          v_crossed := v_crossed || jsonb_build_object('buyerId', e.buyer_id, 'after', v_after);
        END IF;
      EXCEPTION WHEN OTHERS THEN
        v_failed := v_failed || jsonb_build_object('taskId', e.task_id, 'error', SQLERRM);
        UPDATE settlement_effects s SET failed_at = now(), last_error = SQLERRM WHERE s.id = e.id;
      END;
    END LOOP;
  END IF;
  RETURN jsonb_build_object('selected', cardinality(v_selected), 'applied', v_applied, 'failed', v_failed, 'crossed', v_crossed);
END $function$
;
