// Projects: the buyer's projects a page at a time (cursor pagination, newest first) beside the form that
// creates one. Each name opens the project's page.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useIdempotencyKey } from '../api/idempotency';
import { Button } from '../ui/Button';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { focusFirstInvalid, TextAreaField, TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import { Table, type Column } from '../ui/Table';
import { formatDateTime } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX } from '@concord/contract';
import { projectFormErrors, readProjectFields } from './projectForm';
import { DefaultKindField } from './DefaultKind';
import { DefaultDeadlineField } from './DefaultDeadline';
import { QualityFields } from './QualitySettings';
import { useCreateProject, useProjects, type Project } from './queries';
import { Permitted, RoleNote } from '../organisations/Permitted';
import './projects.css';

export function ProjectsPage() {
  const pages = useCursorStack();
  const projects = useProjects(pages.cursor);
  const [created, setCreated] = useState<Project | null>(null);

  const columns: Column<Project>[] = [
    {
      header: 'Name',
      cell: (project) => (
        <Link to={`/projects/${project.id}`} className="project-link">
          {project.name}
        </Link>
      ),
    },
    { header: 'Description', cell: (project) => <span className="truncate muted">{project.description ?? '—'}</span>, wide: true },
    { header: 'Created', cell: (project) => formatDateTime(project.createdAt), wide: true },
  ];

  return (
    <>
      <PageHeader
        title="Projects"
        description="Group tasks by dataset or team: each project shows its progress, spend and label distribution, and filters tasks and exports."
      />
      <div className="projects-layout">
        <Card title="Your projects">
          {projects.isPending ? <Loading label="Loading projects…" /> : null}
          <ErrorNote error={projects.error} />
          {projects.data && projects.data.projects.length === 0 && pages.page === 1 ? (
            <EmptyState title="No projects yet">
              <p>Create one with the form: tasks and golden tasks can then name it.</p>
            </EmptyState>
          ) : null}
          {projects.data && projects.data.projects.length > 0 ? (
            <Table caption="Your projects" columns={columns} rows={projects.data.projects} rowKey={(project) => project.id} />
          ) : null}
          <Pager
            page={pages.page}
            hasMore={projects.data?.hasMore ?? false}
            busy={projects.isFetching}
            onPrevious={pages.previous}
            onNext={() => pages.next(projects.data?.nextCursor)}
          />
        </Card>
        <Card title="New project">
          <Permitted permission="tasks:write" fallback={<RoleNote permission="tasks:write" />}>
            <NewProjectForm
              onCreated={(project) => {
                setCreated(project);
                pages.reset();
              }}
            />
          </Permitted>
          {created ? (
            <Notice tone="success">
              Project <Link to={`/projects/${created.id}`}>{created.name}</Link> created.
            </Notice>
          ) : null}
        </Card>
      </div>
    </>
  );
}

function NewProjectForm({ onCreated }: { onCreated: (project: Project) => void }) {
  const create = useCreateProject();
  const idempotency = useIdempotencyKey();
  const [localErrors, setLocalErrors] = useState<ReturnType<typeof readProjectFields>['errors']>({});
  const apiErrors = projectFormErrors(create.error);
  const errors = { ...apiErrors.fields, ...localErrors };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const { values, errors: problems } = readProjectFields(new FormData(formElement));
    setLocalErrors(problems);
    create.reset();
    if (Object.keys(problems).length > 0) {
      focusFirstInvalid(formElement);
      return;
    }
    try {
      const project = await create.mutateAsync({ body: values, idempotencyKey: idempotency.keyFor(values) });
      idempotency.forget();
      formElement.reset();
      onCreated(project);
    } catch {
      // Shown next to the fields from create.error.
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New project">
      <TextField
        label="Name"
        name="name"
        required
        limit={PROJECT_NAME_MAX}
        autoComplete="off"
        hint={`1 to ${PROJECT_NAME_MAX} characters.`}
        error={errors.name}
      />
      <TextAreaField
        label="Description"
        name="description"
        rows={3}
        limit={PROJECT_DESCRIPTION_MAX}
        hint="Optional: what the project's tasks are for."
        error={errors.description}
      />
      <DefaultKindField error={errors.defaultAnswerKind} />
      <DefaultDeadlineField error={errors.defaultDeadlineHours} />
      <QualityFields errors={errors} />
      <ErrorNote error={apiErrors.general} />
      <Button type="submit" variant="primary" busy={create.isPending}>
        Create project
      </Button>
    </form>
  );
}
