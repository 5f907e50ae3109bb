-- The SDK's two hot statements as server-side functions, so that `GET /sdk/tasks/next` is one round trip
-- and the checks and writes of `POST /sdk/tasks/:id/complete` are one more inside the answer's
-- transaction. Round trips, not SQL, dominate the answer loop's cost (bench/README.md). Volatile
-- PL/pgSQL takes a fresh snapshot for every statement, so the recount after a SKIP LOCKED claim sees
-- assignments committed while the lock was awaited, exactly as the two-statement version did.
-- The consensus decision and the settlement stay in TypeScript (src/consensus, AnnotationService).

-- The annotator of (developer, external id), created on first sight. A known annotator is only read.
CREATE FUNCTION sdk_annotator(p_developer_id text, p_external_id text, p_new_id text) RETURNS annotators
LANGUAGE plpgsql AS $$
DECLARE
  v annotators;
BEGIN
  SELECT * INTO v FROM annotators a WHERE a.developer_id = p_developer_id AND a.external_id = p_external_id;
  IF FOUND THEN RETURN v; END IF;
  INSERT INTO annotators (id, developer_id, external_id) VALUES (p_new_id, p_developer_id, p_external_id)
  ON CONFLICT (developer_id, external_id) DO NOTHING;
  SELECT * INTO v FROM annotators a WHERE a.developer_id = p_developer_id AND a.external_id = p_external_id;
  RETURN v;
END $$;

-- outcome: SERVED (the row describes the assignment and what it shows), NONE (nothing fits) or
-- ANNOTATOR_SUSPENDED. Golden substitution: a golden task of the claimed task's buyer, type and locale
-- that the annotator has not answered, always while they have answered none, else when
-- p_golden_roll < p_golden_rate.
CREATE FUNCTION sdk_next(
  p_developer_id text, p_external_id text, p_new_annotator_id text, p_assignment_id text,
  p_locale text, p_types text[], p_now timestamptz, p_expires_at timestamptz,
  p_golden_roll double precision, p_golden_rate double precision)
RETURNS TABLE (outcome text, assignment_id text, expires_at timestamptz, id text, buyer_id text, type text,
               content text, options text[], locale text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_annotator annotators;
  v_live assignments;
  v_task record;
  v_golden record;
  v_free boolean;
BEGIN
  v_annotator := sdk_annotator(p_developer_id, p_external_id, p_new_annotator_id);
  IF v_annotator.suspended THEN
    RETURN QUERY SELECT 'ANNOTATOR_SUSPENDED', NULL::text, NULL::timestamptz, NULL::text, NULL::text, NULL::text,
                        NULL::text, NULL::text[], NULL::text;
    RETURN;
  END IF;

  -- The same live assignment on repeat, while its target still takes answers.
  SELECT a.* INTO v_live FROM assignments a LEFT JOIN tasks t ON t.id = a.task_id
  WHERE a.annotator_id = v_annotator.id AND a.expires_at > p_now
    AND (a.golden_task_id IS NOT NULL OR t.status IN ('PENDING', 'VALIDATING'));
  IF FOUND THEN
    IF v_live.task_id IS NOT NULL THEN
      RETURN QUERY SELECT 'SERVED', v_live.id, v_live.expires_at, t.id, t.buyer_id, t.type::text, t.content, t.options, t.locale
                   FROM tasks t WHERE t.id = v_live.task_id;
    ELSE
      RETURN QUERY SELECT 'SERVED', v_live.id, v_live.expires_at, g.id, g.buyer_id, g.type::text, g.content, g.options, g.locale
                   FROM golden_tasks g WHERE g.id = v_live.golden_task_id;
    END IF;
    RETURN;
  END IF;

  -- The oldest open matching task with a free slot that the annotator has not answered. A few locked
  -- candidates that turn out full under the lock are stepped over.
  FOR attempt IN 1..8 LOOP
    SELECT t.id, t.buyer_id, t.type, t.content, t.options, t.locale INTO v_task
    FROM tasks t
    WHERE t.status IN ('PENDING', 'VALIDATING')
      AND t.total_responses + (SELECT count(*) FROM assignments a WHERE a.task_id = t.id AND a.expires_at > p_now) < t.max_responses
      AND NOT EXISTS (SELECT 1 FROM task_responses r WHERE r.task_id = t.id AND r.annotator_id = v_annotator.id)
      AND (p_locale IS NULL OR t.locale = p_locale)
      AND (p_types IS NULL OR t.type::text = ANY (p_types))
    ORDER BY t.created_at, t.id LIMIT 1
    FOR UPDATE OF t SKIP LOCKED;
    IF NOT FOUND THEN EXIT; END IF;
    -- A new snapshot: count again under the lock.
    SELECT t.status IN ('PENDING', 'VALIDATING')
           AND t.total_responses + (SELECT count(*) FROM assignments a WHERE a.task_id = t.id AND a.expires_at > p_now) < t.max_responses
      INTO v_free
    FROM tasks t WHERE t.id = v_task.id;
    IF v_free THEN
      IF v_annotator.golden_answered = 0 OR p_golden_roll < p_golden_rate THEN
        SELECT g.id, g.buyer_id, g.type, g.content, g.options, g.locale INTO v_golden
        FROM golden_tasks g
        WHERE g.buyer_id = v_task.buyer_id AND g.type = v_task.type AND g.locale = v_task.locale
          AND NOT EXISTS (SELECT 1 FROM golden_responses r WHERE r.golden_task_id = g.id AND r.annotator_id = v_annotator.id)
        ORDER BY random() LIMIT 1;
        IF FOUND THEN
          UPDATE golden_tasks g SET times_served = g.times_served + 1 WHERE g.id = v_golden.id;
          INSERT INTO assignments AS a (annotator_id, id, task_id, golden_task_id, expires_at, created_at)
          VALUES (v_annotator.id, p_assignment_id, NULL, v_golden.id, p_expires_at, p_now)
          ON CONFLICT (annotator_id) DO UPDATE SET id = EXCLUDED.id, task_id = EXCLUDED.task_id,
            golden_task_id = EXCLUDED.golden_task_id, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at;
          RETURN QUERY SELECT 'SERVED', p_assignment_id, p_expires_at, v_golden.id, v_golden.buyer_id, v_golden.type::text,
                              v_golden.content, v_golden.options, v_golden.locale;
          RETURN;
        END IF;
      END IF;
      INSERT INTO assignments AS a (annotator_id, id, task_id, golden_task_id, expires_at, created_at)
      VALUES (v_annotator.id, p_assignment_id, v_task.id, NULL, p_expires_at, p_now)
      ON CONFLICT (annotator_id) DO UPDATE SET id = EXCLUDED.id, task_id = EXCLUDED.task_id,
        golden_task_id = EXCLUDED.golden_task_id, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at;
      RETURN QUERY SELECT 'SERVED', p_assignment_id, p_expires_at, v_task.id, v_task.buyer_id, v_task.type::text,
                          v_task.content, v_task.options, v_task.locale;
      RETURN;
    END IF;
  END LOOP;
  RETURN QUERY SELECT 'NONE', NULL::text, NULL::timestamptz, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text[], NULL::text;
END $$;

-- Checks and stores an answer to a regular task, with the task row locked until the caller's
-- transaction ends. outcome, in the order the checks run: ANNOTATOR_SUSPENDED, NOT_A_TASK (no such
-- regular task: the caller tries golden tasks), ALREADY_ANSWERED, TASK_CLOSED, NO_ASSIGNMENT,
-- INVALID_ANSWER; then DECIDE when the answer would let the task be decided but p_may_decide is false
-- (nothing is written: the caller retries inside a transaction that can settle), else ANSWERED. On
-- ANSWERED the answer is stored, the slot released, the task counted (PENDING → VALIDATING); while the
-- task cannot be decided yet the annotator's answer is counted too, otherwise `participants` lists
-- every answer with its annotator's counters (arrival order) and the caller decides and settles.
CREATE FUNCTION sdk_answer(
  p_developer_id text, p_external_id text, p_new_annotator_id text, p_task_id text, p_answer text,
  p_time_spent_ms integer, p_response_id text, p_now timestamptz, p_may_decide boolean)
RETURNS TABLE (outcome text, annotator_id text, id text, buyer_id text, type text, options text[], status text,
               max_cents integer, cost_cents integer, validations_needed integer, max_responses integer,
               total_responses integer, participants jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_annotator annotators;
  v_task tasks;
  v_outcome text;
  v_participants jsonb;
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
    ELSIF v_task.status IN ('COMPLETED', 'FAILED') THEN
      v_outcome := 'TASK_CLOSED';
    ELSIF NOT EXISTS (SELECT 1 FROM assignments a
                      WHERE a.annotator_id = v_annotator.id AND a.task_id = v_task.id AND a.expires_at > p_now) THEN
      v_outcome := 'NO_ASSIGNMENT';
    ELSIF NOT (p_answer = ANY (v_task.options)) THEN
      v_outcome := 'INVALID_ANSWER';
    ELSIF NOT p_may_decide AND v_task.total_responses + 1 >= v_task.validations_needed THEN
      v_outcome := 'DECIDE';
    ELSE
      v_outcome := 'ANSWERED';
      INSERT INTO task_responses (id, task_id, annotator_id, answer, time_spent_ms)
      VALUES (p_response_id, v_task.id, v_annotator.id, p_answer, p_time_spent_ms);
      DELETE FROM assignments a WHERE a.annotator_id = v_annotator.id;
      UPDATE tasks t SET total_responses = t.total_responses + 1, status = 'VALIDATING', updated_at = now()
      WHERE t.id = v_task.id RETURNING t.* INTO v_task;
      IF v_task.total_responses < v_task.validations_needed THEN
        UPDATE annotators a SET total_responses = a.total_responses + 1 WHERE a.id = v_annotator.id;
      ELSE
        SELECT jsonb_agg(jsonb_build_object(
                 'annotatorId', r.annotator_id, 'answer', r.answer, 'goldenAnswered', a.golden_answered,
                 'goldenCorrect', a.golden_correct, 'resolvedResponses', a.resolved_responses,
                 'agreedResponses', a.agreed_responses) ORDER BY r.created_at, r.id)
          INTO v_participants
        FROM task_responses r JOIN annotators a ON a.id = r.annotator_id
        WHERE r.task_id = v_task.id;
      END IF;
    END IF;
  END IF;
  RETURN QUERY SELECT v_outcome, v_annotator.id, v_task.id, v_task.buyer_id, v_task.type::text, v_task.options,
                      v_task.status::text, v_task.max_cents, v_task.cost_cents, v_task.validations_needed,
                      v_task.max_responses, v_task.total_responses, v_participants;
END $$;
