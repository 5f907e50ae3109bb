-- The option set of a scope, in the order its matrices use (collation "C": the same in every database).
CREATE OR REPLACE FUNCTION public.label_scope_options(p_options text[])
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT ARRAY(SELECT o FROM unnest(p_options) o ORDER BY o COLLATE "C")
$function$
;
