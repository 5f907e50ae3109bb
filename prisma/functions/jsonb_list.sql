-- The JSON value if it is an array, else an empty one: for reading lists out of stored JSON that must
-- not fail on a value of another shape (apply_settlement_effects).
CREATE OR REPLACE FUNCTION public.jsonb_list(p_value jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN jsonb_typeof(p_value) = 'array' THEN p_value ELSE '[]'::jsonb END
$function$
;
