-- Refused SDK answers leave no trace, and a task's status is not told to an annotator without an
-- assignment (contract §5, issue 14):
-- * sdk_annotator creates an annotator on first sight; an annotator first seen by an answer cannot hold
--   an assignment, so the answer is always refused, and the row is now deleted before the call returns.
-- * NO_ASSIGNMENT is checked before TASK_CLOSED. A golden task never closes, so an app that probed a
--   task id it was served with another annotator id (TASK_CLOSED for regular tasks, NO_ASSIGNMENT for
--   golden ones) learnt which tasks were golden. Now both answer NO_ASSIGNMENT; an annotator who holds
--   an assignment of a task that closed meanwhile still gets TASK_CLOSED.
-- Check order: ANNOTATOR_SUSPENDED, NOT_A_TASK, ALREADY_ANSWERED, NO_ASSIGNMENT, TASK_CLOSED, INVALID_ANSWER.
CREATE OR REPLACE FUNCTION sdk_answer(
  p_developer_id text, p_external_id text, p_new_annotator_id text, p_task_id text, p_answer text,
  p_time_spent_ms integer, p_response_id text, p_now timestamptz,
  p_seen_responses integer, p_plan jsonb, p_low_balance_cents bigint, p_may_cross_low_balance boolean)
RETURNS TABLE (outcome text, annotator_id text, id text, buyer_id text, type text, options text[], status text,
               max_cents integer, cost_cents integer, validations_needed integer, max_responses integer,
               total_responses integer, participants jsonb, balance_after bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_annotator annotators;
  v_task tasks;
  v_outcome text;
  v_participants jsonb;
  v_kind text := p_plan->>'kind';
  v_after bigint;
BEGIN
  v_annotator := sdk_annotator(p_developer_id, p_external_id, p_new_annotator_id);
  IF v_annotator.suspended THEN
    v_outcome := 'ANNOTATOR_SUSPENDED';
  ELSE
    SELECT * INTO v_task FROM tasks t WHERE t.id = p_task_id FOR UPDATE;
    IF NOT FOUND THEN
      v_outcome := 'NOT_A_TASK';
    ELSIF EXISTS (SELECT 1 FROM task_responses r WHERE r.task_id = v_task.id AND r.annotator_id = v_annotator.id) THEN
      v_outcome := 'ALREADY_ANSWERED';
    ELSIF NOT EXISTS (SELECT 1 FROM assignments a
                      WHERE a.annotator_id = v_annotator.id AND a.task_id = v_task.id AND a.expires_at > p_now) THEN
      v_outcome := 'NO_ASSIGNMENT';
    ELSIF v_task.status IN ('COMPLETED', 'FAILED') THEN
      v_outcome := 'TASK_CLOSED';
    ELSIF NOT (p_answer = ANY (v_task.options)) THEN
      v_outcome := 'INVALID_ANSWER';
    ELSIF p_plan IS NULL AND v_task.total_responses + 1 >= v_task.validations_needed THEN
      v_outcome := 'DECIDE';
      SELECT jsonb_agg(p.participant ORDER BY p.arrival, p.id) INTO v_participants
      FROM (
        SELECT jsonb_build_object(
                 'annotatorId', r.annotator_id, 'answer', r.answer, 'goldenAnswered', a.golden_answered,
                 'goldenCorrect', a.golden_correct, 'resolvedResponses', a.resolved_responses,
                 'agreedResponses', a.agreed_responses) AS participant, r.created_at AS arrival, r.id
        FROM task_responses r JOIN annotators a ON a.id = r.annotator_id
        WHERE r.task_id = v_task.id
        UNION ALL
        SELECT jsonb_build_object(
                 'annotatorId', v_annotator.id, 'answer', p_answer, 'goldenAnswered', v_annotator.golden_answered,
                 'goldenCorrect', v_annotator.golden_correct, 'resolvedResponses', v_annotator.resolved_responses,
                 'agreedResponses', v_annotator.agreed_responses), 'infinity', NULL
      ) p;
    ELSIF p_plan IS NOT NULL AND v_task.total_responses <> p_seen_responses THEN
      v_outcome := 'STALE';
    ELSE
      v_outcome := CASE WHEN p_plan IS NULL THEN 'ANSWERED' ELSE 'SETTLED' END;
      INSERT INTO task_responses (id, task_id, annotator_id, answer, time_spent_ms)
      VALUES (p_response_id, v_task.id, v_annotator.id, p_answer, p_time_spent_ms);
      DELETE FROM assignments a WHERE a.annotator_id = v_annotator.id;
      UPDATE tasks t SET
        total_responses = t.total_responses + 1,
        status = CASE v_kind WHEN 'complete' THEN 'COMPLETED' WHEN 'fail' THEN 'FAILED' ELSE 'VALIDATING' END::"TaskStatus",
        result = CASE WHEN v_kind = 'complete' THEN p_plan->>'result' END,
        confidence = CASE WHEN v_kind = 'complete' THEN (p_plan->>'confidence')::double precision END,
        validated_at = CASE WHEN v_kind = 'complete' THEN p_now END,
        failure_reason = CASE WHEN v_kind = 'fail' THEN p_plan->>'failureReason' END,
        failed_at = CASE WHEN v_kind = 'fail' THEN p_now END,
        updated_at = now()
      WHERE t.id = v_task.id RETURNING t.* INTO v_task;
      IF p_plan IS NULL THEN
        UPDATE annotators a SET total_responses = a.total_responses + 1 WHERE a.id = v_annotator.id;
      ELSE
        PERFORM apply_decision(v_task.id, p_plan->'updates');
        IF p_plan ? 'event' THEN
          PERFORM record_event(p_plan->'event'->>'id', v_task.buyer_id, p_plan->'event'->>'type', p_plan->'event'->>'payload',
                               ARRAY(SELECT jsonb_array_elements_text(p_plan->'event'->'deliveryIds')));
        END IF;
        -- Last: the buyer's row stays locked until this statement commits.
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
      END IF;
    END IF;
  END IF;
  -- An annotator first seen by this call holds no assignment, so its answer was refused: it leaves no row.
  IF v_annotator.id = p_new_annotator_id THEN
    DELETE FROM annotators a WHERE a.id = v_annotator.id;
  END IF;
  RETURN QUERY SELECT v_outcome, v_annotator.id, v_task.id, v_task.buyer_id, v_task.type::text, v_task.options,
                      v_task.status::text, v_task.max_cents, v_task.cost_cents, v_task.validations_needed,
                      v_task.max_responses, v_task.total_responses, v_participants, v_after;
END $$;

