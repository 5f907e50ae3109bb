-- GET /sdk/tasks/next in one statement. outcome: SERVED (the row describes the assignment and what it
-- shows), NONE (nothing fits) or ANNOTATOR_SUSPENDED. A live assignment is returned again; otherwise the
-- oldest open task not held by a budget cap and not past its deadline (tasks_served_queue_idx) that fits the
-- filters, that the annotator has not answered and whose answers plus live assignments are below its
-- max_responses is claimed (FOR UPDATE SKIP LOCKED, recounted under the lock, so no caller or process can
-- over-assign it). Among tasks of the oldest age, one whose live assignments are fewer than the answers it
-- still lacks comes first. Priority orders a buyer's own tasks only: the oldest task says whose turn it is
-- (buyers stay interleaved by age, whatever their priorities), and when that buyer has open tasks of a
-- priority other than 0 (tasks_prioritised_idx), the turn goes to the first of its tasks in its own order,
-- task_queue_at (tasks_buyer_queue_idx), that fits and is short of assignees, if that one comes before the
-- oldest. Golden substitution: a golden task of the claimed
-- task's buyer, type, locale and answer kind that the annotator has not answered, when p_golden_roll < p_golden_first_rate
-- while they have answered none (never certain: throwaway annotator ids would list the golden tasks), else
-- when p_golden_roll < p_golden_rate. A pairwise assignment shows B first when p_order_roll < 0.5 (kept
-- on the assignment, which a repeat returns as it was); `candidates` are the pair as shown (shown_candidates).
-- A text task's review is never served to one of its writers.
-- Plans are pinned (no sequential scans, sorts, hash or merge joins; generic plans; no JIT): with the
-- planner free to choose, the queue became O(table) per call (docs/hot-path.md).
CREATE OR REPLACE FUNCTION public.sdk_next(p_developer_id text, p_external_id text, p_new_annotator_id text, p_assignment_id text, p_locale text, p_types text[], p_now timestamp with time zone, p_expires_at timestamp with time zone, p_golden_roll double precision, p_golden_rate double precision, p_golden_first_rate double precision, p_order_roll double precision)
 RETURNS TABLE(outcome text, assignment_id text, expires_at timestamp with time zone, id text, buyer_id text, type text, content text, options text[], locale text, answer_kind text, candidates jsonb, max_length integer)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_sort TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET enable_material TO 'off'
 SET jit TO 'off'
AS $function$
#variable_conflict use_column
DECLARE
  v_annotator annotators;
  v_live assignments;
  v_first record;
  v_task record;
  v_ahead record;
  v_reordered boolean;
  v_golden record;
  v_golden_id text;
  v_free boolean;
  v_swapped boolean;
BEGIN
  v_annotator := sdk_annotator(p_developer_id, p_external_id, p_new_annotator_id, p_now);
  IF v_annotator.suspended THEN
    RETURN QUERY SELECT 'ANNOTATOR_SUSPENDED', NULL::text, NULL::timestamptz, NULL::text, NULL::text, NULL::text,
                        NULL::text, NULL::text[], NULL::text, NULL::text, NULL::jsonb, NULL::integer;
    RETURN;
  END IF;

  -- The same live assignment on repeat, while its target still takes answers.
  SELECT a.* INTO v_live FROM assignments a LEFT JOIN tasks t ON t.id = a.task_id
  WHERE a.annotator_id = v_annotator.id AND a.expires_at > p_now
    AND (a.golden_task_id IS NOT NULL OR (t.status IN ('PENDING', 'VALIDATING') AND (t.deadline IS NULL OR t.deadline > p_now)));
  IF FOUND THEN
    IF v_live.task_id IS NOT NULL THEN
      RETURN QUERY SELECT 'SERVED', v_live.id, v_live.expires_at, t.id, t.buyer_id, t.type::text, t.content, t.options, t.locale,
                          t.answer_kind, shown_candidates(t.candidates, v_live.swapped), t.max_length
                   FROM tasks t WHERE t.id = v_live.task_id;
    ELSE
      RETURN QUERY SELECT 'SERVED', v_live.id, v_live.expires_at, g.id, g.buyer_id, g.type::text, g.content, g.options, g.locale,
                          g.answer_kind, shown_candidates(g.candidates, v_live.swapped), NULL::integer
                   FROM golden_tasks g WHERE g.id = v_live.golden_task_id;
    END IF;
    RETURN;
  END IF;

  -- A few locked candidates that turn out full under the lock are stepped over.
  FOR attempt IN 1..8 LOOP
    -- The oldest open matching task with a free slot that the annotator has not answered.
    SELECT t.id, t.buyer_id, t.type, t.content, t.options, t.locale, t.answer_kind, t.candidates, t.max_length, t.created_at,
           t.priority, l.live < GREATEST(t.validations_needed - t.total_responses, 1) AS short
      INTO v_first
    FROM tasks t
    CROSS JOIN LATERAL (SELECT count(*) AS live FROM assignments a WHERE a.task_id = t.id AND a.expires_at > p_now) l
    WHERE t.status IN ('PENDING', 'VALIDATING') AND t.held_at IS NULL
      AND (t.deadline IS NULL OR t.deadline > p_now)
      AND t.total_responses + l.live < t.max_responses
      AND NOT EXISTS (SELECT 1 FROM task_responses r WHERE r.task_id = t.id AND r.annotator_id = v_annotator.id)
      AND (t.review_of IS NULL OR NOT EXISTS (SELECT 1 FROM task_responses w WHERE w.task_id = t.review_of AND w.annotator_id = v_annotator.id))
      AND (p_locale IS NULL OR t.locale = p_locale)
      AND (p_types IS NULL OR t.type::text = ANY (p_types))
    ORDER BY t.created_at, t.id LIMIT 1
    FOR UPDATE OF t SKIP LOCKED;
    IF NOT FOUND THEN EXIT; END IF;
    v_task := v_first;
    -- The buyer whose turn it is orders its own tasks by priority.
    v_reordered := false;
    IF EXISTS (SELECT 1 FROM tasks p WHERE p.buyer_id = v_first.buyer_id AND p.priority <> 0
               AND p.status IN ('PENDING', 'VALIDATING') AND p.held_at IS NULL) THEN
      SELECT t.id, t.buyer_id, t.type, t.content, t.options, t.locale, t.answer_kind, t.candidates, t.max_length INTO v_ahead
      FROM tasks t
      CROSS JOIN LATERAL (SELECT count(*) AS live FROM assignments a WHERE a.task_id = t.id AND a.expires_at > p_now) l
      WHERE t.buyer_id = v_first.buyer_id
        AND task_queue_at(t.created_at, t.priority) < task_queue_at(v_first.created_at, v_first.priority)
        AND t.status IN ('PENDING', 'VALIDATING') AND t.held_at IS NULL
        AND (t.deadline IS NULL OR t.deadline > p_now)
        AND l.live < GREATEST(t.validations_needed - t.total_responses, 1)
        AND t.total_responses + l.live < t.max_responses
        AND NOT EXISTS (SELECT 1 FROM task_responses r WHERE r.task_id = t.id AND r.annotator_id = v_annotator.id)
        AND (t.review_of IS NULL OR NOT EXISTS (SELECT 1 FROM task_responses w WHERE w.task_id = t.review_of AND w.annotator_id = v_annotator.id))
        AND (p_locale IS NULL OR t.locale = p_locale)
        AND (p_types IS NULL OR t.type::text = ANY (p_types))
      ORDER BY t.buyer_id, task_queue_at(t.created_at, t.priority), t.id LIMIT 1
      FOR UPDATE OF t SKIP LOCKED;
      IF FOUND THEN
        v_task := v_ahead;
        v_reordered := true;
      END IF;
    END IF;
    -- It has enough assignees already: a task of the same age that is short of them comes first.
    IF NOT v_reordered AND NOT v_first.short THEN
      SELECT t.id, t.buyer_id, t.type, t.content, t.options, t.locale, t.answer_kind, t.candidates, t.max_length INTO v_task
      FROM tasks t
      CROSS JOIN LATERAL (SELECT count(*) AS live FROM assignments a WHERE a.task_id = t.id AND a.expires_at > p_now) l
      WHERE t.created_at = v_first.created_at AND t.id > v_first.id
        AND t.status IN ('PENDING', 'VALIDATING') AND t.held_at IS NULL
        AND (t.deadline IS NULL OR t.deadline > p_now)
        AND l.live < GREATEST(t.validations_needed - t.total_responses, 1)
        AND t.total_responses + l.live < t.max_responses
        AND NOT EXISTS (SELECT 1 FROM task_responses r WHERE r.task_id = t.id AND r.annotator_id = v_annotator.id)
        AND (t.review_of IS NULL OR NOT EXISTS (SELECT 1 FROM task_responses w WHERE w.task_id = t.review_of AND w.annotator_id = v_annotator.id))
        AND (p_locale IS NULL OR t.locale = p_locale)
        AND (p_types IS NULL OR t.type::text = ANY (p_types))
      ORDER BY t.created_at, t.id LIMIT 1
      FOR UPDATE OF t SKIP LOCKED;
      IF NOT FOUND THEN v_task := v_first; END IF;
    END IF;
    -- A new snapshot: count again under the lock.
    SELECT t.status IN ('PENDING', 'VALIDATING')
           AND t.total_responses + (SELECT count(*) FROM assignments a WHERE a.task_id = t.id AND a.expires_at > p_now) < t.max_responses
      INTO v_free
    FROM tasks t WHERE t.id = v_task.id;
    IF v_free THEN
      v_golden_id := NULL;
      IF p_golden_roll < (CASE WHEN v_annotator.golden_answered = 0 THEN p_golden_first_rate ELSE p_golden_rate END) THEN
        SELECT g.id, g.buyer_id, g.type, g.content, g.options, g.locale, g.answer_kind, g.candidates, NULL::integer AS max_length INTO v_golden
        FROM golden_tasks g
        WHERE g.buyer_id = v_task.buyer_id AND g.type = v_task.type AND g.locale = v_task.locale
          AND g.answer_kind = v_task.answer_kind
          AND NOT EXISTS (SELECT 1 FROM golden_responses r WHERE r.golden_task_id = g.id AND r.annotator_id = v_annotator.id)
        ORDER BY random() LIMIT 1;
        IF FOUND THEN
          UPDATE golden_tasks g SET times_served = g.times_served + 1 WHERE g.id = v_golden.id;
          v_task := v_golden;
          v_golden_id := v_golden.id;
        END IF;
      END IF;
      v_swapped := v_task.answer_kind = 'pairwise' AND coalesce(p_order_roll, 1) < 0.5;
      INSERT INTO assignments AS a (annotator_id, id, task_id, golden_task_id, expires_at, created_at, swapped)
      VALUES (v_annotator.id, p_assignment_id,
              CASE WHEN v_golden_id IS NULL THEN v_task.id END, v_golden_id, p_expires_at, p_now, v_swapped)
      ON CONFLICT (annotator_id) DO UPDATE SET id = EXCLUDED.id, task_id = EXCLUDED.task_id,
        golden_task_id = EXCLUDED.golden_task_id, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at,
        swapped = EXCLUDED.swapped;
      RETURN QUERY SELECT 'SERVED', p_assignment_id, p_expires_at, v_task.id, v_task.buyer_id, v_task.type::text,
                          v_task.content, v_task.options, v_task.locale, v_task.answer_kind,
                          shown_candidates(v_task.candidates, v_swapped), v_task.max_length;
      RETURN;
    END IF;
  END LOOP;
  RETURN QUERY SELECT 'NONE', NULL::text, NULL::timestamptz, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text[], NULL::text, NULL::text,
                      NULL::jsonb, NULL::integer;
END $function$
;
