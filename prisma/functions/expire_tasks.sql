-- The expiry job's statement (src/modules/tasks/deadlines.ts): closes up to one task per event slot of
-- p_events ({id, deliveryIds} each, made by the caller) among the open tasks past their deadline, soonest
-- deadline first, skipping rows an answer or a change holds right now (the next run takes them). Each
-- ends FAILED with failure_reason EXPIRED, as the spec has no fifth status: no longer held, its live
-- assignments gone, and one settlement_effects row that charges nothing and releases its reservation
-- (nothing for a held task, which had none), applied by apply_settlement_effects as a failure's is; its
-- answerers keep the answers they were counted for and earn nothing, as on any failure; and a task.failed
-- event with reason EXPIRED. A text task and its review share their deadline (open_text_review), so they
-- end together. Returns the tasks closed.
CREATE OR REPLACE FUNCTION public.expire_tasks(p_now timestamp with time zone, p_events jsonb)
 RETURNS TABLE(task_id text, buyer_id text)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  v_task record;
  v_slot jsonb;
  v_n integer := 0;
BEGIN
  FOR v_task IN
    SELECT t.id, t.buyer_id, t.type, t.total_responses, t.max_cents, t.held_at, t.review_of,
           CASE WHEN t.answer_kind = 'text' THEN (SELECT r.id FROM tasks r WHERE r.review_of = t.id) END AS review_task_id
    FROM tasks t
    WHERE t.deadline <= p_now AND t.deadline IS NOT NULL AND t.status IN ('PENDING', 'VALIDATING')
    ORDER BY t.deadline, t.id
    LIMIT jsonb_array_length(p_events)
    FOR UPDATE OF t SKIP LOCKED
  LOOP
    v_slot := p_events->v_n;
    v_n := v_n + 1;
    UPDATE tasks t SET status = 'FAILED', failure_reason = 'EXPIRED', failed_at = p_now, held_at = NULL, updated_at = now()
    WHERE t.id = v_task.id;
    DELETE FROM assignments a WHERE a.task_id = v_task.id;
    INSERT INTO settlement_effects (task_id, buyer_id, effect)
    VALUES (v_task.id, v_task.buyer_id, jsonb_build_object(
      'updates', '[]'::jsonb,
      'model', NULL,
      'chargeCents', 0,
      'releaseCents', CASE WHEN v_task.held_at IS NULL THEN v_task.max_cents ELSE 0 END,
      'chargeLedgerId', NULL));
    -- json (not jsonb) keeps the keys in the order the service writes every payload in.
    PERFORM record_event(v_slot->>'id', v_task.buyer_id, 'task.failed',
      json_strip_nulls(json_build_object(
        'event', 'task.failed', 'taskId', v_task.id, 'type', v_task.type, 'reason', 'EXPIRED',
        'totalResponses', v_task.total_responses,
        'failedAt', to_char(p_now AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'reviewOf', v_task.review_of, 'reviewTaskId', v_task.review_task_id))::text,
      ARRAY(SELECT jsonb_array_elements_text(v_slot->'deliveryIds')));
    task_id := v_task.id;
    buyer_id := v_task.buyer_id;
    RETURN NEXT;
  END LOOP;
END $function$
;
