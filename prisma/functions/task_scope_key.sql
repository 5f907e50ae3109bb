-- The label-model scope of a task or golden task of any answer kind. Single choice keeps
-- label_scope_key's scopes (a project's, else the buyer's project-less tasks with the same option set);
-- a rating scope is its project's or buyer's tasks with the same levels in the same order (the order is
-- the scale: ["1","2","3"] and ["3","2","1"] are two scales), apart from single-choice tasks with the
-- same options, whose counts mean something else. A multi-select scope is its project's or buyer's
-- multi-select tasks with the same option set (in any order: its options are sorted, as single choice's).
CREATE OR REPLACE FUNCTION public.task_scope_key(p_project_id text, p_buyer_id text, p_options text[], p_answer_kind text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN p_answer_kind = 'single' THEN label_scope_key(p_project_id, p_buyer_id, p_options)
              ELSE p_answer_kind || ':' || CASE WHEN p_project_id IS NOT NULL THEN 'project:' || p_project_id ELSE 'buyer:' || p_buyer_id END
                   || ':' || md5(to_jsonb(task_scope_options(p_options, p_answer_kind))::text) END
$function$
;
