-- The settlement of a deciding answer (src/modules/annotation/settlement.ts builds p_plan; this applies
-- it), called by sdk_answer with the task row locked and its answer count checked:
--   p_plan = {kind: continue | complete | fail, result, confidence, failureReason,
--             updates (apply_decision), event {id, type, payload, deliveryIds}, chargeLedgerId,
--             model {scopeKey, scopeOptions, increments: [{annotatorId, matrix (K² deltas or []), correct, answered}]}}
-- The answer is stored, the task moves to its new state, the participants' counters and earnings, the
-- label model's soft counts (in annotator order, after the annotators' rows: the order every writer
-- uses), then the buyer's charge (completed) or released reserve (failed), so the buyer's row, which
-- every decision of that buyer queues on, is held only from there to COMMIT, and last the buyer's event
-- (numbered under the buyer's event counter, taken after the buyer's row like every writer does).
-- Outcomes, as values: SETTLED; LOW_BALANCE when the charge would take the balance from the low-balance
-- threshold or above to below it and p_may_cross_low_balance is false (the caller settles that one in a
-- transaction that also records budget.low and its e-mail); STALE when the scope's option order is no
-- longer the one the plan was computed for (the caller decides again). Neither of the last two leaves
-- anything written: the writes run in a block whose exception rolls them back.
CREATE OR REPLACE FUNCTION public.settle_task(p_task_id text, p_annotator_id text, p_answer text, p_time_spent_ms integer, p_response_id text, p_now timestamp with time zone, p_plan jsonb, p_low_balance_cents bigint, p_may_cross_low_balance boolean)
 RETURNS TABLE(outcome text, balance_after bigint)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  v_kind text := p_plan->>'kind';
  v_task tasks;
  v_model jsonb := p_plan->'model';
  v_after bigint;
BEGIN
  BEGIN
    INSERT INTO task_responses (id, task_id, annotator_id, answer, time_spent_ms)
    VALUES (p_response_id, p_task_id, p_annotator_id, p_answer, p_time_spent_ms);
    DELETE FROM assignments a WHERE a.annotator_id = p_annotator_id;
    UPDATE tasks t SET
      total_responses = t.total_responses + 1,
      status = CASE v_kind WHEN 'complete' THEN 'COMPLETED' WHEN 'fail' THEN 'FAILED' ELSE 'VALIDATING' END::"TaskStatus",
      result = CASE WHEN v_kind = 'complete' THEN p_plan->>'result' END,
      confidence = CASE WHEN v_kind = 'complete' THEN (p_plan->>'confidence')::double precision END,
      validated_at = CASE WHEN v_kind = 'complete' THEN p_now END,
      failure_reason = CASE WHEN v_kind = 'fail' THEN p_plan->>'failureReason' END,
      failed_at = CASE WHEN v_kind = 'fail' THEN p_now END,
      updated_at = now()
    WHERE t.id = p_task_id RETURNING t.* INTO v_task;
    PERFORM apply_decision(p_task_id, p_plan->'updates');
    IF v_model IS NOT NULL THEN
      INSERT INTO label_scopes (key, buyer_id, project_id, options)
      VALUES (v_model->>'scopeKey', v_task.buyer_id, v_task.project_id, ARRAY(SELECT jsonb_array_elements_text(v_model->'scopeOptions')))
      ON CONFLICT (key) DO NOTHING;
      IF NOT EXISTS (SELECT 1 FROM label_scopes s WHERE s.key = v_model->>'scopeKey'
                     AND s.options = ARRAY(SELECT jsonb_array_elements_text(v_model->'scopeOptions'))) THEN
        RAISE EXCEPTION 'the scope''s option order changed' USING ERRCODE = 'CC002';
      END IF;
      PERFORM add_label_counts(v_model->>'scopeKey', jsonb_array_length(v_model->'scopeOptions'), v_model->'increments');
    END IF;
    -- The buyer's row: once taken it stays locked until the statement commits.
    IF v_kind = 'complete' THEN
      WITH charged AS (
        UPDATE buyers b SET credit_balance = b.credit_balance - v_task.cost_cents, reserved_cents = b.reserved_cents - v_task.max_cents
        WHERE b.id = v_task.buyer_id
        RETURNING b.credit_balance
      )
      INSERT INTO ledger_entries (id, buyer_id, type, amount_cents, balance_after_cents, task_id)
      SELECT p_plan->>'chargeLedgerId', v_task.buyer_id, 'TASK_CHARGE', -v_task.cost_cents, credit_balance, v_task.id FROM charged
      RETURNING balance_after_cents INTO v_after;
      IF NOT p_may_cross_low_balance AND v_after + v_task.cost_cents >= p_low_balance_cents AND v_after < p_low_balance_cents THEN
        RAISE EXCEPTION 'the charge crosses the low-balance threshold' USING ERRCODE = 'CC001';
      END IF;
    ELSIF v_kind = 'fail' THEN
      UPDATE buyers b SET reserved_cents = b.reserved_cents - v_task.max_cents WHERE b.id = v_task.buyer_id;
    END IF;
    -- The event after the buyer's row: its number (events_number) locks the buyer's event counter until
    -- COMMIT, and every writer takes the buyer's row first (billing records budget.low after a charge).
    IF p_plan ? 'event' THEN
      PERFORM record_event(p_plan->'event'->>'id', v_task.buyer_id, p_plan->'event'->>'type', p_plan->'event'->>'payload',
                           ARRAY(SELECT jsonb_array_elements_text(p_plan->'event'->'deliveryIds')));
    END IF;
  EXCEPTION
    WHEN SQLSTATE 'CC001' THEN RETURN QUERY SELECT 'LOW_BALANCE'::text, NULL::bigint; RETURN;
    WHEN SQLSTATE 'CC002' THEN RETURN QUERY SELECT 'STALE'::text, NULL::bigint; RETURN;
  END;
  RETURN QUERY SELECT 'SETTLED'::text, v_after;
END $function$
;
