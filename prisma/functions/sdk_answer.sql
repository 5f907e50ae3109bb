-- POST /sdk/tasks/:id/complete for a regular task (docs/hot-path.md walks one answer through it).
-- Check order: ANNOTATOR_SUSPENDED, NOT_A_TASK (no such regular task: the caller tries golden tasks),
-- ALREADY_ANSWERED, NO_ASSIGNMENT, TASK_CLOSED (decided, or past its deadline), INVALID_ANSWER. Then, without a settlement (p_plan NULL):
-- ANSWERED when the answer cannot decide the task yet (fewer than validations_needed answers with it:
-- stored, slot released, task and annotator counted), else DECIDE and nothing written: `participants`
-- are the task's answers in arrival order with this one last, each with its annotator's soft counts in
-- the task's label scope (null when they have none), and `model` the scope (key, option order, prior,
-- class prior, calibration map), the task's answer kind and revision (2 once a rejected result reopened it) (a pairwise answer, given as first, second or
-- tie, is mapped to A, B or tie by the order its assignment showed, pair_answer, and keeps that order:
-- `swapped`; a text task's answer is the written text, trimmed, 1 to max_length characters: it never
-- decides its task, and the one that completes the writing opens the task's review, open_text_review; a
-- review task's `model` also holds `review`, the text task with its written answers, for the plan)
-- and the task's target confidence — everything the label model's decision reads. With a settlement:
-- STALE when the task's answer count is no longer p_seen_responses, else settle_task's outcome (SETTLED
-- or STALE; the task columns are the task as the checks read it, before the settlement). An annotator first seen by this call holds no assignment, so its answer was
-- refused: it leaves no row. Sequential scans are off (as in sdk_next): every lookup here has its index,
-- and generic plans made while a table was empty or small (a new database) chose scans that stayed
-- cached in each connection as the table grew (bench/README.md, session 10).
CREATE OR REPLACE FUNCTION public.sdk_answer(p_developer_id text, p_external_id text, p_new_annotator_id text, p_task_id text, p_answer text, p_time_spent_ms integer, p_response_id text, p_now timestamp with time zone, p_seen_responses integer, p_plan jsonb, p_choices jsonb)
 RETURNS TABLE(outcome text, annotator_id text, id text, buyer_id text, type text, options text[], status text, max_cents integer, cost_cents integer, validations_needed integer, max_responses integer, total_responses integer, participants jsonb, model jsonb, answer_kind text, allow_empty boolean)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
AS $function$
#variable_conflict use_column
DECLARE
  v_annotator annotators;
  v_task tasks;
  v_outcome text;
  v_participants jsonb;
  v_model jsonb;
  v_scope_key text;
  v_answer text;
  v_swapped boolean;
BEGIN
  v_annotator := sdk_annotator(p_developer_id, p_external_id, p_new_annotator_id, p_now);
  IF v_annotator.suspended THEN
    v_outcome := 'ANNOTATOR_SUSPENDED';
  ELSE
    SELECT * INTO v_task FROM tasks t WHERE t.id = p_task_id FOR UPDATE;
    IF NOT FOUND THEN
      v_outcome := 'NOT_A_TASK';
    ELSIF EXISTS (SELECT 1 FROM task_responses r WHERE r.task_id = v_task.id AND r.annotator_id = v_annotator.id) THEN
      v_outcome := 'ALREADY_ANSWERED';
    ELSE
      SELECT a.swapped INTO v_swapped FROM assignments a
      WHERE a.annotator_id = v_annotator.id AND a.task_id = v_task.id AND a.expires_at > p_now;
    END IF;
    IF v_outcome IS NOT NULL THEN
      NULL;
    ELSIF v_swapped IS NULL THEN
      v_outcome := 'NO_ASSIGNMENT';
    -- A text task whose written answers are all in is being reviewed: it takes no more (its review chooses
    -- between exactly those). A task past its deadline takes none either, before the expiry job closes it.
    ELSIF v_task.status IN ('COMPLETED', 'FAILED') OR (v_task.answer_kind = 'text' AND v_task.total_responses >= v_task.max_responses)
          OR v_task.deadline <= p_now THEN
      v_outcome := 'TASK_CLOSED';
    ELSIF v_task.answer_kind = 'text' THEN
      v_answer := CASE WHEN p_choices IS NULL THEN written_answer(p_answer, v_task.max_length) END;
    ELSE
      v_answer := task_answer(v_task.options, v_task.answer_kind, v_task.allow_empty,
                              CASE WHEN v_task.answer_kind = 'pairwise' THEN pair_answer(p_answer, v_swapped) ELSE p_answer END, p_choices);
    END IF;
    IF v_outcome IS NOT NULL THEN
      NULL;
    ELSIF v_answer IS NULL THEN
      v_outcome := 'INVALID_ANSWER';
    ELSIF p_plan IS NULL AND v_task.answer_kind <> 'text' AND v_task.total_responses + 1 >= v_task.validations_needed THEN
      v_outcome := 'DECIDE';
      v_scope_key := task_scope_key(v_task.project_id, v_task.buyer_id, v_task.options, v_task.answer_kind);
      SELECT jsonb_build_object('scopeKey', v_scope_key, 'targetConfidence', v_task.target_confidence,
                                'answerKind', v_task.answer_kind, 'revision', v_task.revision,
                                'scopeOptions', coalesce(s.options, task_scope_options(v_task.options, v_task.answer_kind)),
                                'priorReliability', coalesce(s.prior_reliability, 0.7), 'priorShape', s.prior_shape,
                                'classPrior', s.class_prior, 'calibration', s.calibration,
                                'review', (SELECT jsonb_build_object('taskId', w.id, 'type', w.type, 'costCents', w.cost_cents,
                                                                     'answers',
                                                                     (SELECT jsonb_agg(jsonb_build_object('annotatorId', r.annotator_id, 'answer', r.answer)
                                                                                       ORDER BY r.created_at, r.id)
                                                                      FROM task_responses r WHERE r.task_id = w.id))
                                           FROM tasks w WHERE w.id = v_task.review_of))
      INTO v_model
      FROM (SELECT 1) one LEFT JOIN label_scopes s ON s.key = v_scope_key;
      SELECT jsonb_agg(jsonb_build_object('annotatorId', p.annotator_id, 'answer', p.answer, 'swapped', p.swapped, 'counts',
                                          (SELECT jsonb_build_object('matrix', c.matrix, 'correct', c.correct, 'answered', c.answered)
                                           FROM annotator_scope_counts c WHERE c.scope_key = v_scope_key AND c.annotator_id = p.annotator_id))
                       ORDER BY p.arrival, p.id)
      INTO v_participants
      FROM (
        SELECT r.annotator_id, r.answer, r.swapped, r.created_at AS arrival, r.id FROM task_responses r WHERE r.task_id = v_task.id
        UNION ALL
        SELECT v_annotator.id, v_answer, v_swapped, 'infinity', NULL
      ) p;
    ELSIF p_plan IS NOT NULL AND v_task.total_responses <> p_seen_responses THEN
      v_outcome := 'STALE';
    ELSIF p_plan IS NULL THEN
      v_outcome := 'ANSWERED';
      INSERT INTO task_responses (id, task_id, annotator_id, answer, time_spent_ms, swapped)
      VALUES (p_response_id, v_task.id, v_annotator.id, v_answer, p_time_spent_ms, v_swapped);
      DELETE FROM assignments a WHERE a.annotator_id = v_annotator.id;
      UPDATE tasks t SET total_responses = t.total_responses + 1, status = 'VALIDATING', updated_at = now()
      WHERE t.id = v_task.id RETURNING t.* INTO v_task;
      UPDATE annotators a SET total_responses = a.total_responses + 1 WHERE a.id = v_annotator.id;
      IF v_task.answer_kind = 'text' AND v_task.total_responses = v_task.validations_needed THEN
        PERFORM open_text_review(v_task.id, p_now);
      END IF;
    ELSE
      v_outcome := settle_task(v_task.id, v_annotator.id, v_answer, p_time_spent_ms, p_response_id, p_now, p_plan);
    END IF;
  END IF;
  IF v_annotator.id = p_new_annotator_id THEN
    DELETE FROM annotators a WHERE a.id = v_annotator.id;
  END IF;
  RETURN QUERY SELECT v_outcome, v_annotator.id, v_task.id, v_task.buyer_id, v_task.type::text, v_task.options,
                      v_task.status::text, v_task.max_cents, v_task.cost_cents, v_task.validations_needed,
                      v_task.max_responses, v_task.total_responses, v_participants, v_model, v_task.answer_kind, v_task.allow_empty;
END $function$
;
