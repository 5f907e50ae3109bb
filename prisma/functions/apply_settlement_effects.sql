-- Applies up to p_limit settlement effects (written by settle_task for decided tasks) in the order they
-- were written, in the caller's transaction: the answerers' counters, earnings and EARNING ledger rows
-- (apply_decision), their label counts (add_label_counts), and the buyer's TASK_CHARGE with its ledger
-- row, or the released reservation of a failed task. The caller holds the applier's advisory lock
-- (src/modules/billing/settlement-effects.ts), so every effect is applied once, in order (but for those
-- whose answerers' rows are busy, which wait for a later call). Rows are locked annotators first, then
-- their label counts, each in annotator order (the order the golden path and the re-fit use), then buyers. Returns {applied: how many effects (0 when the oldest were all busy), crossed: [{buyerId, after}]}: each
-- charge that took its buyer's balance from p_low_balance_cents or above to below it, with the balance
-- after it (the caller records budget.low).
CREATE OR REPLACE FUNCTION public.apply_settlement_effects(p_limit integer, p_low_balance_cents bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  v_effects settlement_effects[];
  v_locked text[];
  e settlement_effects;
  v_charge bigint;
  v_after bigint;
  v_crossed jsonb := '[]';
BEGIN
  SELECT array_agg(s ORDER BY s.id) INTO v_effects
  FROM (SELECT * FROM settlement_effects s2 ORDER BY s2.id LIMIT p_limit) s;
  IF v_effects IS NULL THEN RETURN jsonb_build_object('applied', 0, 'crossed', v_crossed); END IF;
  -- The answerers' rows, in id order, those nobody holds: the applier never waits for an annotator's
  -- row (an answer holding one may itself wait for a task row whose settlement waits for an annotator
  -- the applier holds). An effect with an answerer held elsewhere waits for a later call. NO KEY UPDATE,
  -- the lock an UPDATE takes: FOR UPDATE would also conflict with the KEY SHARE locks that inserts
  -- referencing the annotator (assignments, answers, ledger rows) take, and hold those up.
  SELECT coalesce(array_agg(l.id), '{}') INTO v_locked FROM (
    SELECT a.id FROM annotators a
    WHERE a.id IN (SELECT u->>'annotatorId' FROM unnest(v_effects) x, jsonb_array_elements(x.effect->'updates') u)
    ORDER BY a.id FOR NO KEY UPDATE SKIP LOCKED) l;
  SELECT array_agg(x ORDER BY x.id) INTO v_effects FROM unnest(v_effects) x
  WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(x.effect->'updates') u WHERE NOT (u->>'annotatorId' = ANY (v_locked)));
  IF v_effects IS NULL THEN RETURN jsonb_build_object('applied', 0, 'crossed', v_crossed); END IF;
  DELETE FROM settlement_effects s WHERE s.id IN (SELECT x.id FROM unnest(v_effects) x);
  -- Their label counts in annotator order, the order the re-fit writes them in.
  PERFORM 1 FROM annotator_scope_counts c
  WHERE (c.scope_key, c.annotator_id) IN (SELECT x.effect->'model'->>'scopeKey', i->>'annotatorId'
                                          FROM unnest(v_effects) x, jsonb_array_elements(x.effect->'model'->'increments') i
                                          WHERE jsonb_typeof(x.effect->'model') = 'object')
  ORDER BY c.annotator_id, c.scope_key FOR NO KEY UPDATE;
  FOREACH e IN ARRAY v_effects LOOP
    PERFORM apply_decision(e.task_id, e.effect->'updates');
    IF jsonb_typeof(e.effect->'model') = 'object' THEN
      PERFORM add_label_counts(e.effect->'model'->>'scopeKey', (e.effect->'model'->>'optionCount')::integer, e.effect->'model'->'increments');
    END IF;
    v_charge := (e.effect->>'chargeCents')::bigint;
    IF v_charge > 0 THEN
      WITH charged AS (
        UPDATE buyers b SET credit_balance = b.credit_balance - v_charge, reserved_cents = b.reserved_cents - (e.effect->>'releaseCents')::bigint
        WHERE b.id = e.buyer_id
        RETURNING b.credit_balance
      )
      INSERT INTO ledger_entries (id, buyer_id, type, amount_cents, balance_after_cents, task_id)
      SELECT e.effect->>'chargeLedgerId', e.buyer_id, 'TASK_CHARGE', -v_charge, credit_balance, e.task_id FROM charged
      RETURNING balance_after_cents INTO v_after;
      IF v_after + v_charge >= p_low_balance_cents AND v_after < p_low_balance_cents THEN
        v_crossed := v_crossed || jsonb_build_object('buyerId', e.buyer_id, 'after', v_after);
      END IF;
    ELSE
      UPDATE buyers b SET reserved_cents = b.reserved_cents - (e.effect->>'releaseCents')::bigint WHERE b.id = e.buyer_id;
    END IF;
  END LOOP;
  RETURN jsonb_build_object('applied', cardinality(v_effects), 'crossed', v_crossed);
END $function$
;
