-- The answer that decides a task is settled by one autocommitted statement.
--
-- Before, the deciding answer opened a transaction: BEGIN, the answer with the task row locked, the
-- settlement's four statements, COMMIT — seven round trips, the last two with the buyer's row locked
-- (the charge). Every decision of a buyer's tasks queues on that row, so the buyer's throughput was one
-- decision per charge-to-commit round trip of a busy server (pg_stat_statements: the charge waited
-- 5.5 ms on average, and answers to the tasks behind it waited on their task rows in turn).
--
-- Now `sdk_answer` is called first without a settlement: it checks the answer and, when the answer could
-- decide the task, returns the answers the decision needs (with their annotators' counters) without
-- writing anything (DECIDE). The TypeScript consensus code decides and builds the settlement (the task's
-- new state, every participant's counters and earnings, the buyer's event); `sdk_answer` is called again
-- with it, checks the answer again under the task's lock, verifies that the task still has exactly the
-- answers the decision counted (STALE otherwise: the caller decides again), and writes the answer and the
-- whole settlement in the same statement, the buyer's charge last. A charge that would take the balance
-- from the low-balance threshold or above to below it is refused (SQLSTATE CC001, nothing written): the
-- caller settles that one inside a transaction (p_may_cross_low_balance) that also records budget.low and
-- its e-mail.
--
-- Two pieces are functions of their own: record_event, which EventsRepository.record calls too, so the
-- outbox's SQL exists once, and apply_decision (the participants' counters and earnings). They are
-- PL/pgSQL rather than SQL functions because PostgreSQL before 18 plans a SQL function's statement on
-- every call, PL/pgSQL once per connection.

CREATE FUNCTION record_event(p_id text, p_buyer_id text, p_type text, p_payload text, p_delivery_ids text[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH event AS (
    INSERT INTO events (id, buyer_id, type, payload) VALUES (p_id, p_buyer_id, p_type, p_payload) RETURNING id
  )
  INSERT INTO webhook_deliveries (id, event_id, config_id)
  SELECT p_delivery_ids[row_number() OVER (ORDER BY c.id)], event.id, c.id
  FROM event, webhook_configs c
  WHERE c.buyer_id = p_buyer_id AND c.is_active AND p_type = ANY (c.events);
END $$;

-- p_updates: [{annotatorId, answered, resolved, agreed, earnedCents, ledgerId}] sorted by annotatorId; the
-- rows are locked one by one in that order, the order every caller uses, so two decisions sharing
-- annotators cannot deadlock. Each annotator who earned gets an EARNING ledger row whose balance is
-- their available cents after it. (A loop of key lookups: as one UPDATE … FROM, the planner joined a
-- sequential scan of annotators and chose the locking order itself.)
CREATE FUNCTION apply_decision(p_task_id text, p_updates jsonb)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  u record;
  v_available bigint;
BEGIN
  FOR u IN SELECT * FROM jsonb_to_recordset(p_updates)
             AS t("annotatorId" text, answered int, resolved int, agreed int, "earnedCents" bigint, "ledgerId" text) LOOP
    UPDATE annotators a SET
      total_responses = a.total_responses + u.answered,
      resolved_responses = a.resolved_responses + u.resolved,
      agreed_responses = a.agreed_responses + u.agreed,
      earned_cents = a.earned_cents + u."earnedCents"
    WHERE a.id = u."annotatorId"
    RETURNING a.earned_cents - a.paid_out_cents - a.pending_payout_cents INTO v_available;
    IF u."earnedCents" > 0 THEN
      INSERT INTO ledger_entries (id, annotator_id, type, amount_cents, balance_after_cents, task_id)
      VALUES (u."ledgerId", u."annotatorId", 'EARNING', u."earnedCents", v_available, p_task_id);
    END IF;
  END LOOP;
END $$;

DROP FUNCTION sdk_answer(text, text, text, text, text, integer, text, timestamptz, boolean);

-- outcome, in the order the checks run: ANNOTATOR_SUSPENDED, NOT_A_TASK (no such regular task: the caller
-- tries golden tasks), ALREADY_ANSWERED, TASK_CLOSED, NO_ASSIGNMENT, INVALID_ANSWER. Then, without a
-- settlement (p_plan NULL): ANSWERED when the answer cannot decide the task yet (stored, slot released,
-- task and annotator counted), else DECIDE with `participants` — the task's answers in arrival order
-- with this one last, each with its annotator's counters — and nothing written. With a settlement: STALE
-- when the task's answer count is no longer p_seen_responses, else SETTLED: the answer is stored and
-- p_plan applied — {kind: continue | complete | fail, result, confidence, failureReason, updates (see
-- apply_decision), event: {id, type, payload, deliveryIds}, chargeLedgerId} — and balance_after is the
-- buyer's balance after a charge.
CREATE FUNCTION sdk_answer(
  p_developer_id text, p_external_id text, p_new_annotator_id text, p_task_id text, p_answer text,
  p_time_spent_ms integer, p_response_id text, p_now timestamptz,
  p_seen_responses integer, p_plan jsonb, p_low_balance_cents bigint, p_may_cross_low_balance boolean)
RETURNS TABLE (outcome text, annotator_id text, id text, buyer_id text, type text, options text[], status text,
               max_cents integer, cost_cents integer, validations_needed integer, max_responses integer,
               total_responses integer, participants jsonb, balance_after bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_annotator annotators;
  v_task tasks;
  v_outcome text;
  v_participants jsonb;
  v_kind text := p_plan->>'kind';
  v_after bigint;
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
    ELSIF p_plan IS NULL AND v_task.total_responses + 1 >= v_task.validations_needed THEN
      v_outcome := 'DECIDE';
      SELECT jsonb_agg(p.participant ORDER BY p.arrival, p.id) INTO v_participants
      FROM (
        SELECT jsonb_build_object(
                 'annotatorId', r.annotator_id, 'answer', r.answer, 'goldenAnswered', a.golden_answered,
                 'goldenCorrect', a.golden_correct, 'resolvedResponses', a.resolved_responses,
                 'agreedResponses', a.agreed_responses) AS participant, r.created_at AS arrival, r.id
        FROM task_responses r JOIN annotators a ON a.id = r.annotator_id
        WHERE r.task_id = v_task.id
        UNION ALL
        SELECT jsonb_build_object(
                 'annotatorId', v_annotator.id, 'answer', p_answer, 'goldenAnswered', v_annotator.golden_answered,
                 'goldenCorrect', v_annotator.golden_correct, 'resolvedResponses', v_annotator.resolved_responses,
                 'agreedResponses', v_annotator.agreed_responses), 'infinity', NULL
      ) p;
    ELSIF p_plan IS NOT NULL AND v_task.total_responses <> p_seen_responses THEN
      v_outcome := 'STALE';
    ELSE
      v_outcome := CASE WHEN p_plan IS NULL THEN 'ANSWERED' ELSE 'SETTLED' END;
      INSERT INTO task_responses (id, task_id, annotator_id, answer, time_spent_ms)
      VALUES (p_response_id, v_task.id, v_annotator.id, p_answer, p_time_spent_ms);
      DELETE FROM assignments a WHERE a.annotator_id = v_annotator.id;
      UPDATE tasks t SET
        total_responses = t.total_responses + 1,
        status = CASE v_kind WHEN 'complete' THEN 'COMPLETED' WHEN 'fail' THEN 'FAILED' ELSE 'VALIDATING' END::"TaskStatus",
        result = CASE WHEN v_kind = 'complete' THEN p_plan->>'result' END,
        confidence = CASE WHEN v_kind = 'complete' THEN (p_plan->>'confidence')::double precision END,
        validated_at = CASE WHEN v_kind = 'complete' THEN p_now END,
        failure_reason = CASE WHEN v_kind = 'fail' THEN p_plan->>'failureReason' END,
        failed_at = CASE WHEN v_kind = 'fail' THEN p_now END,
        updated_at = now()
      WHERE t.id = v_task.id RETURNING t.* INTO v_task;
      IF p_plan IS NULL THEN
        UPDATE annotators a SET total_responses = a.total_responses + 1 WHERE a.id = v_annotator.id;
      ELSE
        PERFORM apply_decision(v_task.id, p_plan->'updates');
        IF p_plan ? 'event' THEN
          PERFORM record_event(p_plan->'event'->>'id', v_task.buyer_id, p_plan->'event'->>'type', p_plan->'event'->>'payload',
                               ARRAY(SELECT jsonb_array_elements_text(p_plan->'event'->'deliveryIds')));
        END IF;
        -- Last: the buyer's row stays locked until this statement commits.
        IF v_kind = 'complete' THEN
          WITH charged AS (
            UPDATE buyers b SET credit_balance = b.credit_balance - v_task.cost_cents, reserved_cents = b.reserved_cents - v_task.max_cents
            WHERE b.id = v_task.buyer_id
            RETURNING b.credit_balance
          )
          INSERT INTO ledger_entries (id, buyer_id, type, amount_cents, balance_after_cents, task_id)
          SELECT p_plan->>'chargeLedgerId', v_task.buyer_id, 'TASK_CHARGE', -v_task.cost_cents, credit_balance, v_task.id FROM charged
          RETURNING balance_after_cents INTO v_after;
          IF NOT p_may_cross_low_balance AND v_after + v_task.cost_cents >= p_low_balance_cents AND v_after < p_low_balance_cents THEN
            RAISE EXCEPTION 'the charge crosses the low-balance threshold' USING ERRCODE = 'CC001';
          END IF;
        ELSIF v_kind = 'fail' THEN
          UPDATE buyers b SET reserved_cents = b.reserved_cents - v_task.max_cents WHERE b.id = v_task.buyer_id;
        END IF;
      END IF;
    END IF;
  END IF;
  RETURN QUERY SELECT v_outcome, v_annotator.id, v_task.id, v_task.buyer_id, v_task.type::text, v_task.options,
                      v_task.status::text, v_task.max_cents, v_task.cost_cents, v_task.validations_needed,
                      v_task.max_responses, v_task.total_responses, v_participants, v_after;
END $$;

ALTER FUNCTION sdk_answer(text, text, text, text, text, integer, text, timestamptz, integer, jsonb, bigint, boolean)
  SET plan_cache_mode = force_generic_plan;
