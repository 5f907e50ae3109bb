// GET /projects/:id/quality and GET /quality/option-sets: what a buyer needs to decide whether to trust a
// batch's labels (src/consensus/quality-report.ts says what each figure means).
import { qualityReport, type QualityReport } from '../../consensus/quality-report.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { ProjectsRepository } from '../projects/projects.repository.ts';
import type { LabelQualityRepository } from './label-quality.repository.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { labelQuality: LabelQualityRepository; projects: ProjectsRepository };
type Db = UnitOfWork<Repos>;

export class LabelQualityService {
  constructor(private readonly db: Db) {}

  /** A project's report; PROJECT_NOT_FOUND for another buyer's project or none. */
  async project(buyerId: string, projectId: string): Promise<QualityReport> {
    await this.db.repos.projects.get(buyerId, projectId);
    return qualityReport(await this.db.repos.labelQuality.projectFigures(projectId));
  }

  /** One report per option set of the buyer's tasks without a project (the largest 50). */
  async optionSets(buyerId: string): Promise<Array<QualityReport & { options: string[] }>> {
    const sets = await this.db.repos.labelQuality.optionSetFigures(buyerId);
    return sets.map(({ options, figures }) => ({ options, ...qualityReport(figures) }));
  }
}
