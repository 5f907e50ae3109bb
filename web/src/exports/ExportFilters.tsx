// Which tasks the export holds: status, type, project and locale, as GET /exports filters them.
import type { Project } from '../projects/queries';
import { LOCALES, STATUSES, TASK_TYPES } from '../tasks/vocabulary';
import { SelectField } from '../ui/Field';
import type { ExportRequest } from './exportRequest';

type FilterKey = 'status' | 'type' | 'projectId' | 'locale';

interface ExportFiltersProps {
  request: ExportRequest;
  projects: Project[] | undefined;
  onChange: (key: FilterKey, value: string) => void;
  /** The API's per-field messages of a VALIDATION_ERROR. */
  apiFields: Record<string, string>;
}

export function ExportFilters({ request, projects, onChange, apiFields }: ExportFiltersProps) {
  const projectKnown = !request.projectId || (projects?.some((p) => p.id === request.projectId) ?? true);
  return (
    <div className="filter-grid">
      <SelectField
        label="Status"
        name="status"
        value={request.status}
        onChange={(event) => onChange('status', event.target.value)}
        options={STATUSES}
        hint={request.status === 'COMPLETED' ? 'Only completed tasks carry a label.' : 'Tasks that are not completed are exported without a label.'}
        error={apiFields.status}
      />
      <SelectField
        label="Type"
        name="type"
        value={request.type}
        onChange={(event) => onChange('type', event.target.value)}
        options={[{ value: '', label: 'Any type' }, ...TASK_TYPES]}
        error={apiFields.type}
      />
      <SelectField
        label="Project"
        name="projectId"
        value={request.projectId}
        onChange={(event) => onChange('projectId', event.target.value)}
        options={[
          { value: '', label: 'Any project' },
          ...(projects ?? []).map((p) => ({ value: p.id, label: p.name })),
          ...(projectKnown ? [] : [{ value: request.projectId, label: `Unknown project (${request.projectId})` }]),
        ]}
        hint={projectKnown ? undefined : 'No project of yours has this id: the export would be empty.'}
        error={apiFields.projectId}
      />
      <SelectField
        label="Locale"
        name="locale"
        value={request.locale}
        onChange={(event) => onChange('locale', event.target.value)}
        options={[{ value: '', label: 'Any locale' }, ...LOCALES]}
        error={apiFields.locale}
      />
    </div>
  );
}
