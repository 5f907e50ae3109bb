-- The annotator of (developer, external id), created on first sight under p_new_id at p_now (the service's
-- clock: an annotator's first reputation snapshot is dated at its creation); a known annotator is only
-- read. Used by sdk_next and sdk_answer.
CREATE OR REPLACE FUNCTION public.sdk_annotator(p_developer_id text, p_external_id text, p_new_id text, p_now timestamp with time zone)
 RETURNS annotators
 LANGUAGE plpgsql
AS $function$
DECLARE
  v annotators;
BEGIN
  SELECT * INTO v FROM annotators a WHERE a.developer_id = p_developer_id AND a.external_id = p_external_id;
  IF FOUND THEN RETURN v; END IF;
  INSERT INTO annotators (id, developer_id, external_id, created_at) VALUES (p_new_id, p_developer_id, p_external_id, p_now)
  ON CONFLICT (developer_id, external_id) DO NOTHING;
  SELECT * INTO v FROM annotators a WHERE a.developer_id = p_developer_id AND a.external_id = p_external_id;
  RETURN v;
END $function$
;
