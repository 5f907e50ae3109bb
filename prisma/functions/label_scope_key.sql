-- The label-model scope of a task or golden task: its project's, else the buyer's project-less tasks
-- with the same option set.
CREATE OR REPLACE FUNCTION public.label_scope_key(p_project_id text, p_buyer_id text, p_options text[])
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN p_project_id IS NOT NULL THEN 'project:' || p_project_id
              ELSE 'options:' || p_buyer_id || ':' || md5(to_jsonb(label_scope_options(p_options))::text) END
$function$
;
