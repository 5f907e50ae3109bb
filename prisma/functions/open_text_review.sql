-- A text task's second stage, opened by the answer that completes its writing (sdk_answer): a review task
-- of the same buyer, project, type and locale whose content is the instruction followed by the written
-- answers, numbered in arrival order ("Answer 1: …"), and whose options are their numbers, decided by the
-- single-choice model. Its id is the text task's with "-review". Its budget and price are the text task's
-- price, moved from the text task's reservation (created with twice the price), so the buyer's reserve
-- does not change. It asks for 3 answers, at most its project's maxResponses (else 10), and the text task's
-- target confidence; it has the text task's deadline and priority (the expiry job closes both together).
CREATE OR REPLACE FUNCTION public.open_text_review(p_task_id text, p_now timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO tasks (id, buyer_id, project_id, type, content, options, locale, max_cents, cost_cents, validations_needed,
                     max_responses, target_confidence, answer_kind, review_of, deadline, priority, created_at, updated_at)
  SELECT t.id || '-review', t.buyer_id, t.project_id, t.type,
         t.content || E'\n\n' || string_agg('Answer ' || a.n || E':\n' || a.answer, E'\n\n' ORDER BY a.n),
         array_agg('Answer ' || a.n ORDER BY a.n), t.locale, t.cost_cents, t.cost_cents, 3,
         GREATEST(coalesce((SELECT p.max_responses FROM projects p WHERE p.id = t.project_id), 10), 3),
         t.target_confidence, 'single', t.id, t.deadline, t.priority, p_now, p_now
  FROM tasks t
  CROSS JOIN LATERAL (SELECT r.answer, row_number() OVER (ORDER BY r.created_at, r.id) AS n FROM task_responses r WHERE r.task_id = t.id) a
  WHERE t.id = p_task_id
  GROUP BY t.id;
  UPDATE tasks t SET max_cents = t.max_cents - t.cost_cents, updated_at = now() WHERE t.id = p_task_id;
$function$
;
