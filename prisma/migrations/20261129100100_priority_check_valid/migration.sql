-- The CHECK added NOT VALID by the previous migration, validated under SHARE UPDATE EXCLUSIVE (task writes
-- go on while the table is scanned).
ALTER TABLE "tasks" VALIDATE CONSTRAINT "tasks_priority_check";
