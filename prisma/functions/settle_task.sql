-- The settlement of a deciding answer (src/modules/settlement/plan.ts builds p_plan; this applies it),
-- called by sdk_answer with the task row locked and its answer count checked. p_plan's fields are
-- src/modules/settlement/codecs.ts's settlementPlanCodec, which every plan passes before it is sent.
-- Written here, in the answer's transaction: the answer, the task's new state, the buyer's event (and
-- its webhook deliveries), and for a decided task one settlement_effects row with everything else it
-- owes — the answerers' counters, earnings and label counts, the buyer's charge or released reserve —
-- which apply_settlement_effects applies shortly after, under one lock, for many decisions at once
-- (docs/hot-path.md says why: decisions no longer queue on the rows they share). A `continue` plan
-- only counts the answer on its annotator's row, as sdk_answer does for an answer that cannot decide. Outcomes, as values: SETTLED; STALE when the scope's option order is no longer the
-- one the plan was computed for (the caller decides again), with nothing written (the writes run in a
-- block whose exception rolls them back).
CREATE OR REPLACE FUNCTION public.settle_task(p_task_id text, p_annotator_id text, p_answer text, p_time_spent_ms integer, p_response_id text, p_now timestamp with time zone, p_plan jsonb)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  v_kind text := p_plan->>'kind';
  v_task tasks;
  v_model jsonb := p_plan->'model';
BEGIN
  BEGIN
    -- The order the answerer's assignment showed a pair in (sdk_answer checked the assignment is live).
    INSERT INTO task_responses (id, task_id, annotator_id, answer, time_spent_ms, swapped)
    SELECT p_response_id, p_task_id, p_annotator_id, p_answer, p_time_spent_ms,
           coalesce((SELECT a.swapped FROM assignments a WHERE a.annotator_id = p_annotator_id), false);
    DELETE FROM assignments a WHERE a.annotator_id = p_annotator_id;
    UPDATE tasks t SET
      total_responses = t.total_responses + 1,
      status = CASE v_kind WHEN 'complete' THEN 'COMPLETED' WHEN 'fail' THEN 'FAILED' ELSE 'VALIDATING' END::"TaskStatus",
      result = CASE WHEN v_kind = 'complete' THEN p_plan->>'result' END,
      confidence = CASE WHEN v_kind = 'complete' THEN (p_plan->>'confidence')::double precision END,
      result_details = CASE WHEN v_kind = 'complete' THEN p_plan->'resultDetails' END,
      validated_at = CASE WHEN v_kind = 'complete' THEN p_now END,
      failure_reason = CASE WHEN v_kind = 'fail' THEN p_plan->>'failureReason' END,
      failed_at = CASE WHEN v_kind = 'fail' THEN p_now END,
      updated_at = now()
    WHERE t.id = p_task_id RETURNING t.* INTO v_task;
    IF v_model IS NOT NULL THEN
      INSERT INTO label_scopes (key, buyer_id, project_id, options, answer_kind)
      VALUES (v_model->>'scopeKey', v_task.buyer_id, v_task.project_id, ARRAY(SELECT jsonb_array_elements_text(v_model->'scopeOptions')),
              v_task.answer_kind)
      ON CONFLICT (key) DO NOTHING;
      IF NOT EXISTS (SELECT 1 FROM label_scopes s WHERE s.key = v_model->>'scopeKey'
                     AND s.options = ARRAY(SELECT jsonb_array_elements_text(v_model->'scopeOptions'))) THEN
        RAISE EXCEPTION 'the scope''s option order changed' USING ERRCODE = 'CC002';
      END IF;
    END IF;
    IF v_kind = 'continue' THEN
      -- Only the answerer's answer count, as an answer that cannot decide its task has it counted.
      PERFORM apply_decision(p_task_id, p_plan->'updates');
    ELSE
      -- The plan names the charge (plan.ts, beside the earnings it funds). One that names none, or more
      -- than the task reserved, is refused, never settled free or overcharged (a server older than this
      -- function sends no charge).
      IF NOT (p_plan ? 'chargeCents') OR (p_plan->>'chargeCents')::bigint NOT BETWEEN 0 AND v_task.max_cents THEN
        RAISE EXCEPTION 'the plan of task % names no charge within its reserve', p_task_id;
      END IF;
      INSERT INTO settlement_effects (task_id, buyer_id, effect)
      VALUES (v_task.id, v_task.buyer_id, jsonb_build_object(
        'updates', p_plan->'updates',
        'model', CASE WHEN v_model IS NULL THEN NULL ELSE jsonb_build_object(
                   'scopeKey', v_model->'scopeKey',
                   'optionCount', coalesce((v_model->>'countsSide')::int, jsonb_array_length(v_model->'scopeOptions')),
                   'increments', v_model->'increments') END,
        'chargeCents', (p_plan->>'chargeCents')::bigint,
        'releaseCents', v_task.max_cents,
        'chargeLedgerId', p_plan->>'chargeLedgerId'));
    END IF;
    IF p_plan ? 'event' THEN
      PERFORM record_event(p_plan->'event'->>'id', v_task.buyer_id, p_plan->'event'->>'type', p_plan->'event'->>'payload',
                           ARRAY(SELECT jsonb_array_elements_text(p_plan->'event'->'deliveryIds')));
    END IF;
    -- A review's decision decides its text task: the winning text (or the failure), the text task's own
    -- charge and release and its writers' counters and earnings, and its event.
    IF p_plan ? 'reviewed' THEN
      UPDATE tasks t SET
        status = CASE WHEN v_kind = 'complete' THEN 'COMPLETED' ELSE 'FAILED' END::"TaskStatus",
        result = p_plan->'reviewed'->>'result',
        confidence = CASE WHEN v_kind = 'complete' THEN (p_plan->>'confidence')::double precision END,
        validated_at = CASE WHEN v_kind = 'complete' THEN p_now END,
        failure_reason = CASE WHEN v_kind = 'fail' THEN p_plan->>'failureReason' END,
        failed_at = CASE WHEN v_kind = 'fail' THEN p_now END,
        updated_at = now()
      WHERE t.id = p_plan->'reviewed'->>'taskId';
      IF NOT (p_plan->'reviewed' ? 'chargeCents') OR (p_plan->'reviewed'->>'chargeCents')::bigint NOT BETWEEN 0 AND
         (SELECT w.max_cents FROM tasks w WHERE w.id = p_plan->'reviewed'->>'taskId') THEN
        RAISE EXCEPTION 'the plan of text task % names no charge within its reserve', p_plan->'reviewed'->>'taskId';
      END IF;
      INSERT INTO settlement_effects (task_id, buyer_id, effect)
      SELECT w.id, w.buyer_id, jsonb_build_object(
        'updates', p_plan->'reviewed'->'updates',
        'model', NULL,
        'chargeCents', (p_plan->'reviewed'->>'chargeCents')::bigint,
        'releaseCents', w.max_cents,
        'chargeLedgerId', p_plan->'reviewed'->>'chargeLedgerId')
      FROM tasks w WHERE w.id = p_plan->'reviewed'->>'taskId';
      PERFORM record_event(p_plan->'reviewed'->'event'->>'id', v_task.buyer_id, p_plan->'reviewed'->'event'->>'type',
                           p_plan->'reviewed'->'event'->>'payload',
                           ARRAY(SELECT jsonb_array_elements_text(p_plan->'reviewed'->'event'->'deliveryIds')));
    END IF;
  EXCEPTION
    WHEN SQLSTATE 'CC002' THEN RETURN 'STALE';
  END;
  RETURN 'SETTLED';
END $function$
;
